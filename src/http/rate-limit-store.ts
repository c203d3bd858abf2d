/**
 * The rate limiter's counter store (docs/api.md#rate-limits): fixed one-minute windows in Redis when
 * REDIS_URL is set (shared by every instance), in process otherwise. While Redis cannot answer
 * (not connected, or a command failed or timed out) the counters are kept in process, so the limits
 * hold per instance instead of switching off, and chats never wait on a Redis that is down. Both
 * halves are @fastify/rate-limit's own stores; this only chooses between them per call.
 */
import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];
interface Counter {
  incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void;
}

// The plugin's stores are not part of its typed surface: loaded by path, typed here.
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (continueExceeding: boolean, exponentialBackoff: boolean, cache: number) => Counter;
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => Counter;

/** In-process counters kept (least recently used first out); more distinct keys in one minute let the oldest go. */
export const LOCAL_COUNTERS = 20_000;
const REDIS_KEY_PREFIX = 'chat-adapter:rate-limit:';
/** After a failed Redis call, counters stay local this long before Redis is tried again. */
const SHARED_RETRY_AFTER_MS = 1_000;

export interface RateLimitStoreEvents {
  /**
   * A Redis command failed or timed out on a connected client: counters are per instance for a
   * second. (A lost connection is reported by the connection itself, see connectRedis `onOutage`.)
   */
  onCommandFailed?(err: Error): void;
}

/** The store class handed to @fastify/rate-limit (`store` option). */
export function rateLimitStore(redis: Redis | undefined, events: RateLimitStoreEvents = {}): FastifyRateLimitStoreCtor {
  const local = new LocalStore(false, false, LOCAL_COUNTERS);
  if (redis === undefined) {
    return class InProcessRateLimitStore {
      incr: Counter['incr'] = (key, callback, timeWindow, max) => local.incr(key, callback, timeWindow, max);
      child = () => this;
    } as unknown as FastifyRateLimitStoreCtor;
  }

  const client = redis;
  const shared = new RedisStore(false, false, client, REDIS_KEY_PREFIX);
  let sharedRetryAt = 0;
  return class SharedOrLocalRateLimitStore {
    incr: Counter['incr'] = (key, callback, timeWindow, max) => {
      if (client.status !== 'ready' || Date.now() < sharedRetryAt) {
        local.incr(key, callback, timeWindow, max);
        return;
      }
      shared.incr(
        key,
        (err, result) => {
          if (err !== null || result === undefined) {
            sharedRetryAt = Date.now() + SHARED_RETRY_AFTER_MS;
            events.onCommandFailed?.(err ?? new Error('no result'));
            local.incr(key, callback, timeWindow, max);
            return;
          }
          callback(null, result);
        },
        timeWindow,
        max,
      );
    };
    child = () => this;
  } as unknown as FastifyRateLimitStoreCtor;
}
