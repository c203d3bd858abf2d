/**
 * docs/api.md#one-turn-at-a-time-per-session across instances: a per-session queue in Redis whose head holds the session's turn
 * (a fair lease). A plain `SET NX` lease would let the instance that releases it take it again
 * before a waiter elsewhere polls, breaking arrival order; a ticket queue keeps that order.
 *
 * Per session, three keys in one hash slot (`{<session>}`):
 *   :q  sorted set  token -> ticket (arrival order, from :n)
 *   :e  sorted set  token -> lease expiry (Redis clock, ms)
 *   :n  ticket counter
 * Each entry is named by its owner's unique token and holds a short lease (create-session-turns.ts
 * renews it while the message waits or runs). Every script acts on the caller's own token only and
 * is safe to repeat: an enter or leave whose reply was lost (a Redis stall, a command timeout) is
 * sent again with the same token and changes nothing the first one did. Every script first drops
 * expired entries, so a waiter that finds the head's lease expired (its instance died, or lost
 * Redis mid-turn) takes over. The keys expire with their longest-lived entry and are deleted when the
 * last entry leaves, so an idle session leaves nothing behind. Redis's own clock (TIME) is used, so
 * instances with skewed clocks agree.
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
local function lease(e, token, until_ms)
  redis.call('ZADD', e, until_ms, token)
  local last = redis.call('ZRANGE', e, -1, -1, 'WITHSCORES')
  for i = 1, #KEYS do redis.call('PEXPIREAT', KEYS[i], tonumber(last[2]) + 1000) end
end
`;

// KEYS q e n; ARGV token leaseMs -> 1 when the entry is the head (holds the turn), else 0.
// Repeated with the same token, it keeps the entry's ticket and only renews its lease.
const ENTER = `${COMMON}
local now = now_ms()
prune(KEYS[1], KEYS[2], now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[3]), ARGV[1])
end
lease(KEYS[2], ARGV[1], now + tonumber(ARGV[2]))
if head_is(KEYS[1], ARGV[1]) then return 1 end
return 0`;

// KEYS q e n; ARGV token leaseMs -> 1 renewed, 0 the entry is gone (its lease had expired).
const RENEW = `${COMMON}
local now = now_ms()
prune(KEYS[1], KEYS[2], now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
lease(KEYS[2], ARGV[1], now + tonumber(ARGV[2]))
return 1`;

// KEYS q e; ARGV token -> 1 head, 0 still waiting, -1 the entry is gone (expired, or Redis lost it).
const POLL = `${COMMON}
prune(KEYS[1], KEYS[2], now_ms())
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return -1 end
if head_is(KEYS[1], ARGV[1]) then return 1 end
return 0`;

// KEYS q e n; ARGV token -> 1 when the caller's entry was there, 0 when it was not (expired, or
// already left: a repeated leave). Compare-and-delete: only the caller's own token is removed.
const LEAVE = `
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('DEL', KEYS[1], KEYS[2], KEYS[3]) end
return removed`;

export type PollResult = 'head' | 'waiting' | 'gone';

export interface RedisTurnQueue {
  /** Joins the session's queue (or renews an entry already there); true when it holds the turn. Throws on a Redis failure. */
  enter(sessionKey: string, token: string, leaseMs: number): Promise<boolean>;
  /** Extends the entry's lease; false when it had already expired. Throws on a Redis failure. */
  renew(sessionKey: string, token: string, leaseMs: number): Promise<boolean>;
  poll(sessionKey: string, token: string): Promise<PollResult>;
  /** Leaves the queue; false when the entry was not there (expired, or left before). */
  leave(sessionKey: string, token: string): Promise<boolean>;
  /**
   * False while the connection is down: a command then fails at once without being sent (no
   * offline queue), so it cannot have left anything in Redis.
   */
  readonly connected: boolean;
}

export function createRedisTurnQueue(client: Redis, keyPrefix = 'chat-adapter:turn:'): RedisTurnQueue {
  const enter = redisScript(client, 'turnEnter', 3, ENTER);
  const renew = redisScript(client, 'turnRenew', 3, RENEW);
  const poll = redisScript(client, 'turnPoll', 2, POLL);
  const leave = redisScript(client, 'turnLeave', 3, LEAVE);
  const keys = (sessionKey: string) => {
    const base = `${keyPrefix}{${sessionKey}}`;
    return [`${base}:q`, `${base}:e`, `${base}:n`];
  };
  const ms = (leaseMs: number) => Math.max(1, Math.ceil(leaseMs));
  return {
    async enter(sessionKey, token, leaseMs) {
      return (await enter(keys(sessionKey), [token, ms(leaseMs)])) === 1;
    },
    async renew(sessionKey, token, leaseMs) {
      return (await renew(keys(sessionKey), [token, ms(leaseMs)])) === 1;
    },
    async poll(sessionKey, token) {
      const result = await poll(keys(sessionKey).slice(0, 2), [token]);
      return result === 1 ? 'head' : result === 0 ? 'waiting' : 'gone';
    },
    async leave(sessionKey, token) {
      return (await leave(keys(sessionKey), [token])) === 1;
    },
    get connected() {
      return client.status === 'ready';
    },
  };
}
