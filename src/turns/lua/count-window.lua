--[[
  Counts a chat in a rate-limit window shared by many sessions (a client's, an organisation's):
  a key of its own, reached apart from the session's scripts, so each call is single-slot.

  KEYS[1] counter
  ARGV[1] window_ms
  ARGV[2] undo       1: give back a count (the chat did not run); returns {}
  Returns {count, ms left}.
]]
-- @include "window"

if ARGV[2] == '1' then
  uncount_window(KEYS[1])
  return {}
end
return count_window(KEYS[1], tonumber(ARGV[1]))
