/**
 * docs/api.md#one-turn-at-a-time-per-session across instances: a per-session queue in Redis whose head holds the session's turn
 * (a fair lease). A plain `SET NX` lease would let the instance that releases it take it again
 * before a waiter elsewhere polls, breaking arrival order; a ticket queue keeps that order.
 *
 * Per session, three keys in one hash slot (`{<session>}`):
 *   :q  sorted set  token -> ticket (arrival order, from :n)
 *   :e  sorted set  token -> expiry (Redis clock, ms): each entry expires at its request's
 *       deadline, so the lease of the head lasts at most REQUEST_TIMEOUT_MS and an instance that
 *       dies never blocks the session longer than that
 *   :n  ticket counter
 * Every script first drops expired entries; the keys themselves expire with their longest-lived
 * entry and are deleted when the last entry leaves, so an idle session leaves nothing behind.
 * Redis's own clock (TIME) is used, so instances with skewed clocks agree.
 */
import type { Redis } from 'ioredis';
import { redisScript } from '../shared-state/redis-script.ts';

const COMMON = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function prune(q, e, now)
  local expired = redis.call('ZRANGEBYSCORE', e, '-inf', now)
  if #expired > 0 then
    redis.call('ZREM', q, unpack(expired))
    redis.call('ZREM', e, unpack(expired))
  end
end
local function head_is(q, token)
  return redis.call('ZRANGE', q, 0, 0)[1] == token
end
`;

// KEYS q e n; ARGV token ttlMs -> 1 when the new entry is the head (holds the turn), else 0.
const ENTER = `${COMMON}
local now = now_ms()
prune(KEYS[1], KEYS[2], now)
redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[1])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[1])
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
for i = 1, 3 do redis.call('PEXPIREAT', KEYS[i], tonumber(last[2]) + 1000) end
if head_is(KEYS[1], ARGV[1]) then return 1 end
return 0`;

// KEYS q e; ARGV token -> 1 head, 0 still waiting, -1 the entry is gone (expired, or Redis lost it).
const POLL = `${COMMON}
prune(KEYS[1], KEYS[2], now_ms())
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return -1 end
if head_is(KEYS[1], ARGV[1]) then return 1 end
return 0`;

// KEYS q e n; ARGV token -> 1 when the entry was still there, 0 when it had expired.
const LEAVE = `
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('DEL', KEYS[1], KEYS[2], KEYS[3]) end
return removed`;

export type PollResult = 'head' | 'waiting' | 'gone';

export interface RedisTurnQueue {
  /** Joins the session's queue; true when this entry holds the turn at once. Throws on a Redis failure. */
  enter(sessionKey: string, token: string, ttlMs: number): Promise<boolean>;
  poll(sessionKey: string, token: string): Promise<PollResult>;
  /** Leaves the queue; false when the entry had already expired (a holder that overran its lease). */
  leave(sessionKey: string, token: string): Promise<boolean>;
}

export function createRedisTurnQueue(client: Redis, keyPrefix = 'chat-adapter:turn:'): RedisTurnQueue {
  const enter = redisScript(client, 'turnEnter', 3, ENTER);
  const poll = redisScript(client, 'turnPoll', 2, POLL);
  const leave = redisScript(client, 'turnLeave', 3, LEAVE);
  const keys = (sessionKey: string) => {
    const base = `${keyPrefix}{${sessionKey}}`;
    return [`${base}:q`, `${base}:e`, `${base}:n`];
  };
  return {
    async enter(sessionKey, token, ttlMs) {
      return (await enter(keys(sessionKey), [token, Math.max(1, Math.ceil(ttlMs))])) === 1;
    },
    async poll(sessionKey, token) {
      const result = await poll(keys(sessionKey).slice(0, 2), [token]);
      return result === 1 ? 'head' : result === 0 ? 'waiting' : 'gone';
    },
    async leave(sessionKey, token) {
      return (await leave(keys(sessionKey), [token])) === 1;
    },
  };
}
