/**
 * Session cache in Redis (when a Redis is configured: one node, Sentinel or Cluster): every instance
 * pointed at one Redis shares sessions.
 *
 * Layout per session, all three keys written in one MULTI with the same expiry (so they live and die
 * together; the TTL is refreshed by every write):
 *   <prefix>{<id>}:m  list of JSON history items, RPUSH question+answer then LTRIM to the last 8
 *   <prefix>{<id>}:a  list of JSON cached answers, RPUSH then LTRIM to the last 8
 *   <prefix>{<id>}:l  the language last replied in
 * (<id> and the parsing of what comes back: redis-session-data.ts.)
 * The three keys share the session's hash tag, so on a Cluster they live in one slot and the MULTI is
 * single-slot. A MULTI is applied atomically, so concurrent turns from several instances are all kept, each
 * question next to its own answer; none is lost to a read-modify-write race.
 *
 * Failing fast: no offline queue (a command while disconnected fails at once), a short command
 * timeout, at most one retry, and our own deadline on every call; ioredis keeps reconnecting in
 * the background (at most 1 s apart), so the cache works again as soon as Redis is back.
 */
import type { RedisTarget } from '../config/redis-target.ts';
import { connectRedis, DEFAULT_REDIS_COMMAND_TIMEOUT_MS, redisAnswers } from '../shared-state/redis-connection.ts';
import { results, SESSION_KEY_PREFIX, sessionEntryOf, sessionKeys, sessionWriteOf } from './redis-session-data.ts';
import {
  MAX_SESSION_ANSWERS, MAX_SESSION_MESSAGES, silentCacheEvents,
  type CacheEvents, type SessionCache, type Turn,
} from './session-cache.ts';
import { toError } from '../errors.ts';

export interface RedisCacheOptions {
  /** The configured Redis (a string: one node's URL). */
  redis: RedisTarget | string;
  ttlSeconds: number;
  commandTimeoutMs?: number;
  events?: CacheEvents;
  now?: () => number;
  /** Key namespace, so that several services can share one Redis. */
  keyPrefix?: string;
}


/** Rejects after `ms` so that no call can outlive the timeout, whatever the client does. */
function withDeadline<T>(work: Promise<T>, ms: number, operation: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`redis ${operation} timed out after ${ms} ms`)), ms);
  });
  work.catch(() => {}); // a late failure after the deadline is already reported
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export function createRedisCache(opts: RedisCacheOptions): SessionCache {
  if (!(opts.ttlSeconds > 0)) throw new RangeError('ttlSeconds must be positive');
  const events = opts.events ?? silentCacheEvents;
  const now = opts.now ?? Date.now;
  const timeoutMs = opts.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const ttlMs = Math.ceil(opts.ttlSeconds * 1000);
  const prefix = opts.keyPrefix ?? SESSION_KEY_PREFIX;
  const client = connectRedis(opts.redis, { commandTimeoutMs: timeoutMs, onOutage: (err) => events.error('connection', err) });

  return {
    async get(key) {
      try {
        const keys = sessionKeys(prefix, key);
        const replies = await withDeadline(
          client.multi().lrange(keys.messages, 0, -1).lrange(keys.answers, 0, -1).get(keys.language).exec(),
          timeoutMs, 'get',
        );
        const [rawMessages, rawAnswers, language] = results(replies);
        return sessionEntryOf(rawMessages, rawAnswers, language);
      } catch (err) {
        events.error('get', toError(err));
        return undefined;
      }
    },
    async recordTurn(key, turn: Turn) {
      try {
        const keys = sessionKeys(prefix, key);
        const added = sessionWriteOf(turn, now());
        const write = client
          .multi()
          .rpush(keys.messages, ...added.messages)
          .ltrim(keys.messages, -MAX_SESSION_MESSAGES, -1)
          .pexpire(keys.messages, ttlMs);
        // A stopped turn is kept in the history only: no reply to reuse.
        if (added.answer !== undefined) {
          write.rpush(keys.answers, added.answer).ltrim(keys.answers, -MAX_SESSION_ANSWERS, -1).pexpire(keys.answers, ttlMs);
        }
        const replies = await withDeadline(write.set(keys.language, turn.language, 'PX', ttlMs).exec(), timeoutMs, 'recordTurn');
        results(replies);
      } catch (err) {
        events.error('recordTurn', toError(err));
      }
    },
    /** True when Redis answers PING within the command timeout (on a Cluster: every primary). */
    async ping() {
      try {
        return await withDeadline(redisAnswers(client), timeoutMs, 'ping');
      } catch {
        return false;
      }
    },
    async close() {
      try {
        if (client.status === 'ready') await withDeadline(client.quit(), timeoutMs, 'close');
      } catch {
        // Closing is best-effort; the socket is dropped below either way.
      } finally {
        client.disconnect();
      }
    },
  };
}
