--[[
  The start of a chat's turn, in one round trip (src/turns/redis-turn-queue.ts): count the session's
  rate-limit window, then enter the session's turn queue and, at the head, read the session.
  Every key shares the session's hash tag: one slot on a cluster.

  KEYS[1] turns      sorted set: token -> ticket
  KEYS[2] leases     sorted set: token -> lease expiry
  KEYS[3] tickets    ticket counter
  KEYS[4] rate       the session's rate-limit window counter
  KEYS[5] messages   the session's last messages (list)
  KEYS[6] answers    the session's replies given (list)
  KEYS[7] language   the session's language
  ARGV[1] token      the entry's owner (unique per chat)
  ARGV[2] lease_ms   the entry's lease
  ARGV[3] window_ms  the rate window's length
  ARGV[4] rate_max   chats per window; 0: no session limit (KEYS[4] untouched)
  ARGV[5] read       1: read the session at the head
  Returns {-1, counts} refused, {0, counts} waiting, {1, counts[, session]} head;
  counts is {} or {{count, ms left}}, session {messages, answers, language}.
]]
-- @include "turn-queue"
-- @include "session"
-- @include "window"

local counts = {}
local rate_max = tonumber(ARGV[4])
if rate_max > 0 then
  counts[1] = count_window(KEYS[4], tonumber(ARGV[3]))
  if counts[1][1] > rate_max then return {-1, counts} end
end
if not enter_entry(KEYS[1], KEYS[2], KEYS[3], ARGV[1], tonumber(ARGV[2])) then return {0, counts} end
if ARGV[5] == '1' then return {1, counts, read_session(KEYS[5], KEYS[6], KEYS[7])} end
return {1, counts}
