--[[
  Deletes the holder's claim (its attempt failed), only while it is still the holder's own.

  KEYS[1] record
  ARGV[1] claim      the holder's claim value
  Returns 1 deleted, 0 otherwise.
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
