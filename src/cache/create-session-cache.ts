/**
 * Picks the session cache implementation from configuration (docs/configuration.md, docs/api.md#session-cache): Redis when
 * one is configured (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES) (sessions shared by every instance), otherwise the in-process cache, bounded in sessions and bytes.
 * The Redis cache (and with it ioredis, several MiB of memory) is loaded only when it is chosen.
 */
import type { RedisTarget } from '../config/redis-target.ts';
import { createMemoryCache } from './memory-cache.ts';
import { DEFAULT_SESSION_TTL_SECONDS, type CacheEvents, type SessionCache } from './session-cache.ts';

export interface SessionCacheConfig {
  /** The configured Redis (a string: one node's URL); unset or empty selects the in-process cache. */
  redis?: RedisTarget | string | undefined;
  ttlSeconds?: number;
  /** CACHE_MAX_SESSIONS: the bound of the in-process cache (see src/config/load-config.ts). */
  maxSessions: number;
  /** CACHE_MAX_BYTES: the heap the in-process cache may hold. */
  maxBytes?: number;
  commandTimeoutMs?: number;
  events?: CacheEvents;
}

export async function createSessionCache(config: SessionCacheConfig): Promise<SessionCache> {
  const ttlSeconds = config.ttlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
  const events = config.events === undefined ? {} : { events: config.events };
  if (config.redis !== undefined && config.redis !== '') {
    const { createRedisCache } = await import('./redis-cache.ts');
    const timeout = config.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: config.commandTimeoutMs };
    return createRedisCache({ redis: config.redis, ttlSeconds, ...timeout, ...events });
  }
  return createMemoryCache({ maxSessions: config.maxSessions, ttlSeconds, ...(config.maxBytes === undefined ? {} : { maxBytes: config.maxBytes }), ...events });
}
