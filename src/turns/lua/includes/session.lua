--[[
  A session's kept conversation (src/cache/redis-session-data.ts): the last messages, the replies
  given, the language. The same writes as the session cache's recordTurn.
]]
local function read_session(messages, answers, language)
  return {redis.call('LRANGE', messages, 0, -1), redis.call('LRANGE', answers, 0, -1), redis.call('GET', language)}
end

local function append_turn(messages, answers, language, ttl_ms, max_messages, max_answers, lang, answer, question_item, answer_item)
  redis.call('RPUSH', messages, question_item, answer_item)
  redis.call('LTRIM', messages, -max_messages, -1)
  redis.call('PEXPIRE', messages, ttl_ms)
  if answer ~= '' then
    redis.call('RPUSH', answers, answer)
    redis.call('LTRIM', answers, -max_answers, -1)
    redis.call('PEXPIRE', answers, ttl_ms)
  end
  redis.call('SET', language, lang, 'PX', ttl_ms)
end
