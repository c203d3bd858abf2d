--[[
  Keeps the answer in place of the holder's claim, only while the claim is still the holder's own.

  KEYS[1] record
  ARGV[1] claim      the holder's claim value
  ARGV[2] kept       the kept answer: {"f": fingerprint, "s": status, "b": body}
  ARGV[3] ttl_ms     IDEMPOTENCY_TTL_S in ms
  Returns 1 replaced, 0 the claim was no longer the holder's (it expired and was taken over).
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
