--[[
  The per-session turn queue (src/turns/redis-turn-queue.ts describes its rules). Functions take
  their keys as arguments; every key is one the calling script received in KEYS.
    turns    sorted set  token -> ticket (arrival order)
    leases   sorted set  token -> lease expiry (Redis clock, ms)
    tickets  ticket counter
]]
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Drops the entries whose lease ran out (their instance died, or lost Redis mid-turn).
local function prune(turns, leases, now)
  local expired = redis.call('ZRANGEBYSCORE', leases, '-inf', now)
  if #expired > 0 then
    redis.call('ZREM', turns, unpack(expired))
    redis.call('ZREM', leases, unpack(expired))
  end
end

local function head_is(turns, token)
  return redis.call('ZRANGE', turns, 0, 0)[1] == token
end

-- Renews the entry's lease; the queue's keys expire one second after its longest lease.
local function lease(turns, leases, tickets, token, until_ms)
  redis.call('ZADD', leases, until_ms, token)
  local last = redis.call('ZRANGE', leases, -1, -1, 'WITHSCORES')
  local expiry = tonumber(last[2]) + 1000
  redis.call('PEXPIREAT', turns, expiry)
  redis.call('PEXPIREAT', leases, expiry)
  redis.call('PEXPIREAT', tickets, expiry)
end

-- Joins the queue (repeated with the same token: keeps the ticket, renews the lease); true at the head.
local function enter_entry(turns, leases, tickets, token, lease_ms)
  local now = now_ms()
  prune(turns, leases, now)
  if not redis.call('ZSCORE', turns, token) then
    redis.call('ZADD', turns, redis.call('INCR', tickets), token)
  end
  lease(turns, leases, tickets, token, now + lease_ms)
  return head_is(turns, token)
end

-- Compare-and-delete: removes the caller's own entry only; 1 when it was there.
local function leave_entry(turns, leases, tickets, token)
  local removed = redis.call('ZREM', turns, token)
  redis.call('ZREM', leases, token)
  if redis.call('ZCARD', turns) == 0 then redis.call('DEL', turns, leases, tickets) end
  return removed
end
