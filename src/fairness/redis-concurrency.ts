/**
 * Concurrency ceilings shared by every instance through Redis (docs/api.md#fair-shares). Each
 * counter is one sorted set of leases (member: lease id, score: expiry in Redis's own clock) under
 * its own key, `chat-adapter:{conc:<hash>}`, the hash tag making each call single-slot on a
 * Cluster. A chat's counters are asked at once (both commands written before either answer is
 * read: one round trip); a chat counted on one and refused by the other gives the first lease back.
 * When Redis fails to answer, that chat is counted in process instead (`fallback`), so chats go on
 * during an outage with per-instance ceilings.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createHash, randomUUID } from 'node:crypto';
import type { RedisClient } from '../shared-state/redis-connection.ts';
import { redisScript, type RedisScript } from '../shared-state/redis-script.ts';
import { once, type Admission, type CeilingCount, type ConcurrencyCeilings } from './concurrency-ceilings.ts';
import { LocalConcurrency } from './local-concurrency.ts';

/**
 * KEYS[1]: the counter's sorted set of leases. ARGV[1]: lease id; ARGV[2]: the ceiling;
 * ARGV[3]: lease ms. Drops expired leases, then adds this one unless the ceiling is reached.
 * Returns 1 when counted, 0 when full.
 */
export const ACQUIRE_LEASE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) + 1000)
return 1`;

/** The counter's key: the id hashed (caller data never shapes a key), its own hash tag. */
export function concurrencyKey(count: Pick<CeilingCount, 'ceiling' | 'id'>): string {
  const hash = createHash('sha256').update(`${count.ceiling}\n${count.id}`).digest('hex').slice(0, 32);
  return `chat-adapter:{conc:${hash}}`;
}

export interface RedisConcurrencyOptions {
  readonly redis: RedisClient;
  readonly leaseMs: number;
  /** A Redis call failed: this chat is counted in process. */
  readonly onFallback?: (err: Error) => void;
}

export class RedisConcurrency implements ConcurrencyCeilings {
  readonly #redis: RedisClient;
  readonly #leaseMs: number;
  readonly #acquireOne: RedisScript;
  readonly #local: LocalConcurrency;
  readonly #onFallback: ((err: Error) => void) | undefined;

  constructor(options: RedisConcurrencyOptions) {
    this.#redis = options.redis;
    this.#leaseMs = options.leaseMs;
    this.#acquireOne = redisScript(options.redis, 'chatAdapterConcurrencyAcquire', 1, ACQUIRE_LEASE_LUA);
    this.#local = new LocalConcurrency(options.leaseMs);
    this.#onFallback = options.onFallback;
  }

  async acquire(counts: readonly CeilingCount[]): Promise<Admission> {
    if (counts.length === 0) return { admitted: true, release: () => {} };
    const lease = randomUUID();
    const keys = counts.map(concurrencyKey);
    const answers = await Promise.allSettled(keys.map((key, i) => this.#acquireOne([key], [lease, counts[i]!.max, this.#leaseMs])));
    const counted = keys.filter((_key, i) => answers[i]!.status === 'fulfilled' && (answers[i] as PromiseFulfilledResult<unknown>).value === 1);
    const failed = answers.find((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    if (failed !== undefined) {
      // Every key, not only those answered: an acquire whose reply was lost (a stall) may still run on Redis.
      this.#release(keys, lease);
      this.#onFallback?.(failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason)));
      return this.#local.acquire(counts);
    }
    const full = answers.findIndex((answer) => (answer as PromiseFulfilledResult<unknown>).value !== 1);
    if (full !== -1) {
      this.#release(counted, lease);
      return { admitted: false, ceiling: counts[full]!.ceiling };
    }
    return { admitted: true, release: once(() => this.#release(keys, lease)) };
  }

  /**
   * Gives the leases back. One that Redis did not take (a stall, a failover in progress) is sent
   * again, backing off to a second apart, until it is answered or the lease would have expired: a
   * stall must not leave a client's leases counted for the whole lease time.
   */
  #release(keys: readonly string[], lease: string): void {
    const giveUpAt = Date.now() + this.#leaseMs;
    for (const key of keys) void this.#releaseOne(key, lease, giveUpAt);
  }

  async #releaseOne(key: string, lease: string, giveUpAt: number): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.#redis.zrem(key, lease);
        return;
      } catch {
        if (Date.now() >= giveUpAt) return;
        await sleep(Math.min(1_000, 50 * 2 ** attempt), undefined, { ref: false });
      }
    }
  }
}
