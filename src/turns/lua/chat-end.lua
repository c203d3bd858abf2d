--[[
  The end of a chat's turn, in one round trip: leave the session's turn queue and, when the turn
  is to be kept, store it in the session, atomically. The turn is stored only while the caller's
  entry holds the turn (it is the head): a leave repeated after a lost reply stores nothing twice,
  and a turn whose lease expired never writes into the conversation after the next one.

  KEYS[1] turns  KEYS[2] leases  KEYS[3] tickets  KEYS[4] rate
  KEYS[5] messages  KEYS[6] answers  KEYS[7] language      (as chat-begin.lua)
  ARGV[1] token
  ARGV[2] mode          'leave' | 'store' (keep the turn) | 'uncount' (the chat did not run: its
                        session window count is given back)
  with 'store':
  ARGV[3] ttl_ms        the session's time to live
  ARGV[4] max_messages  messages kept
  ARGV[5] max_answers   replies kept
  ARGV[6] language      'en' | 'es'
  ARGV[7] answer        the cached answer (JSON); '' for none (a stopped turn: kept in the history only)
  ARGV[8] question      the question's history item (JSON)
  ARGV[9] reply         the reply's history item (JSON)
  Returns 1 when the caller's entry was there, 0 when it was not.
]]
-- @include "turn-queue"
-- @include "session"
-- @include "window"

local holds = head_is(KEYS[1], ARGV[1])
local removed = leave_entry(KEYS[1], KEYS[2], KEYS[3], ARGV[1])
if ARGV[2] == 'uncount' and removed == 1 then uncount_window(KEYS[4]) end
if ARGV[2] == 'store' and holds then
  append_turn(KEYS[5], KEYS[6], KEYS[7], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), ARGV[6], ARGV[7], ARGV[8], ARGV[9])
end
return removed
