--[[
  A streamed turn's writes, one call per round trip: the turn record, a batch of parts, the
  producer's lease, and the stop flag read back; or, at the end, the end marker. All four keys share
  the conversation's hash tag (src/streams/redis-stream-keys.ts): one slot on a cluster.

  KEYS[1] turn     the conversation's current turn (JSON record)
  KEYS[2] parts    the turn's parts (a Redis stream, one entry per batch)
  KEYS[3] live     the producer's lease
  KEYS[4] stop     the stop flag a stop request sets
  ARGV[1] record       the record to set; '' = none
  ARGV[2] entry_id     the batch's entry id; '' = no batch
  ARGV[3] end_kind     'finished' | 'failed' | 'aborted'; '' = not the end
  ARGV[4] end_id       the end entry's id
  ARGV[5] ended        the record once ended
  ARGV[6] live_ms      how long the record and parts live while the turn runs
  ARGV[7] lease_ms     the producer's lease
  ARGV[8] ended_ms     how long an ended turn is kept (60 s)
  ARGV[9..] the batch's fields and values
  Returns the stop flag (nil when none, and at the end).
]]
if ARGV[1] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[6]) end
if ARGV[2] ~= '' then redis.call('XADD', KEYS[2], ARGV[2], unpack(ARGV, 9)) end
if ARGV[3] ~= '' then
  redis.call('XADD', KEYS[2], ARGV[4], 'e', ARGV[3])
  redis.call('PEXPIRE', KEYS[2], ARGV[8])
  redis.call('SET', KEYS[1], ARGV[5], 'PX', ARGV[8])
  redis.call('DEL', KEYS[3], KEYS[4])
  return false
end
redis.call('PEXPIRE', KEYS[2], ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('SET', KEYS[3], '1', 'PX', ARGV[7])
return redis.call('GET', KEYS[4])
