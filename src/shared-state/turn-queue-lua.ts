/**
 * The Lua every shared-state script of a chat is built from, in one place: the per-session turn
 * queue (src/turns/redis-turn-queue.ts describes its keys and rules) and the session's three keys
 * (src/cache/redis-session-data.ts). Each function takes its keys as arguments, never reads KEYS
 * itself, so one script can combine them with other keys (rate-limit windows, the session).
 */
import { MAX_SESSION_ANSWERS, MAX_SESSION_MESSAGES } from '../cache/session-cache.ts';

export const TURN_QUEUE_LUA = `
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
local function lease(q, e, n, token, until_ms)
  redis.call('ZADD', e, until_ms, token)
  local last = redis.call('ZRANGE', e, -1, -1, 'WITHSCORES')
  local expiry = tonumber(last[2]) + 1000
  redis.call('PEXPIREAT', q, expiry)
  redis.call('PEXPIREAT', e, expiry)
  redis.call('PEXPIREAT', n, expiry)
end
-- Joins the queue (or, repeated with the same token, keeps the ticket and renews the lease): true at the head.
local function enter_entry(q, e, n, token, lease_ms)
  local now = now_ms()
  prune(q, e, now)
  if not redis.call('ZSCORE', q, token) then
    redis.call('ZADD', q, redis.call('INCR', n), token)
  end
  lease(q, e, n, token, now + lease_ms)
  return head_is(q, token)
end
-- Compare-and-delete: removes the caller's own entry only; 1 when it was there.
local function leave_entry(q, e, n, token)
  local removed = redis.call('ZREM', q, token)
  redis.call('ZREM', e, token)
  if redis.call('ZCARD', q) == 0 then redis.call('DEL', q, e, n) end
  return removed
end
`;

export const SESSION_LUA = `
local function read_session(m, a, l)
  return {redis.call('LRANGE', m, 0, -1), redis.call('LRANGE', a, 0, -1), redis.call('GET', l)}
end
-- The same writes as the session cache's recordTurn, one after the other inside the script.
local function append_turn(m, a, l, ttl_ms, language, answer, question_item, answer_item)
  redis.call('RPUSH', m, question_item, answer_item)
  redis.call('LTRIM', m, -${MAX_SESSION_MESSAGES}, -1)
  redis.call('PEXPIRE', m, ttl_ms)
  redis.call('RPUSH', a, answer)
  redis.call('LTRIM', a, -${MAX_SESSION_ANSWERS}, -1)
  redis.call('PEXPIRE', a, ttl_ms)
  redis.call('SET', l, language, 'PX', ttl_ms)
end
`;
