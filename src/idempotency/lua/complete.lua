--[[
  Keeps the answer in place of the holder's claim: while the claim is still the holder's own, or
  when the record is gone (its claim expired, or a failover lost a claim the replica never got),
  so a retry is a replay. A record another request now holds is left alone.

  KEYS[1] record
  ARGV[1] claim      the holder's claim value
  ARGV[2] kept       the kept answer: {"f": fingerprint, "s": status, "b": body}
  ARGV[3] ttl_ms     IDEMPOTENCY_TTL_S in ms
  Returns 1 kept, 0 the record belongs to another request.
]]
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] or current == false then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
