--[[
  Extends a waiting or running entry's lease.

  KEYS[1] turns  KEYS[2] leases  KEYS[3] tickets
  ARGV[1] token
  ARGV[2] lease_ms
  Returns 1 renewed, 0 the entry is gone (its lease had expired).
]]
-- @include "turn-queue"

local now = now_ms()
prune(KEYS[1], KEYS[2], now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
lease(KEYS[1], KEYS[2], KEYS[3], ARGV[1], now + tonumber(ARGV[2]))
return 1
