import type { RedisClient } from '../shared-state/redis-connection.ts';
import type { ConcurrencyCeilings } from './concurrency-ceilings.ts';
import { LocalConcurrency } from './local-concurrency.ts';
import { RedisConcurrency } from './redis-concurrency.ts';

export interface ConcurrencyCeilingsOptions {
  /** The shared-state connection (REDIS_URL); undefined = counted per instance. */
  readonly redis: RedisClient | undefined;
  /** How long a lease lasts if never given back: longer than any chat's work (its deadline). */
  readonly leaseMs: number;
  readonly onFallback?: (err: Error) => void;
}

/** docs/api.md#fair-shares: shared through Redis when configured, per instance otherwise. */
export function createConcurrencyCeilings(options: ConcurrencyCeilingsOptions): ConcurrencyCeilings {
  if (options.redis === undefined) return new LocalConcurrency(options.leaseMs);
  return new RedisConcurrency({ redis: options.redis, leaseMs: options.leaseMs, ...(options.onFallback !== undefined && { onFallback: options.onFallback }) });
}
