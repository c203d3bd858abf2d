--[[
  A fixed rate-limit window (@fastify/rate-limit's RedisStore rule): INCR; a new window gets its
  length as expiry, a running one reports what is left of it. Returns {count, ms left}.
]]
local function count_window(counter, window_ms)
  local current = redis.call('INCR', counter)
  if current == 1 then
    redis.call('PEXPIRE', counter, window_ms)
    return {current, window_ms}
  end
  return {current, redis.call('PTTL', counter)}
end

-- Gives back a count made by a chat that then did not run (answered from its Idempotency-Key, or refused elsewhere).
local function uncount_window(counter)
  if redis.call('EXISTS', counter) == 1 then redis.call('DECR', counter) end
end
