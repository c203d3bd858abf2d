--[[
  Where a waiting entry stands; at the head, the session is read in the same call.

  KEYS[1] turns  KEYS[2] leases  KEYS[3] messages  KEYS[4] answers  KEYS[5] language
  ARGV[1] token
  ARGV[2] read   1: read the session at the head
  Returns {1[, session]} head, {0} still waiting, {-1} the entry is gone (expired, or Redis lost it).
]]
-- @include "turn-queue"
-- @include "session"

prune(KEYS[1], KEYS[2], now_ms())
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {-1} end
if not head_is(KEYS[1], ARGV[1]) then return {0} end
if ARGV[2] == '1' then return {1, read_session(KEYS[3], KEYS[4], KEYS[5])} end
return {1}
