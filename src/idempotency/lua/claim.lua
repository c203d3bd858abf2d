--[[
  Claims an Idempotency-Key's record for a request, or says what holds it, in one call.

  KEYS[1] record     the key's record (one per organisation and key)
  ARGV[1] claim      the claim's value: {"f": fingerprint, "t": owner token}
  ARGV[2] claim_ms   how long the claim lives (the request's deadline and a margin)
  Returns {1} claimed, or {0, record} the record that holds the key.
]]
if redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {1} end
return {0, redis.call('GET', KEYS[1])}
