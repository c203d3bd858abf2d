/**
 * The end of a chat's turn with REDIS_URL, in one script and one round trip: store the turn in the
 * session (the same writes as the session cache's recordTurn) and leave the turn queue, atomically.
 * The turn is stored only when the caller's entry still holds the turn (it is the head): a leave
 * repeated after a lost reply finds no entry and stores nothing twice, and a turn whose lease
 * expired (the next message may have started) never writes into the conversation after it.
 */
import type { SessionWrite } from '../cache/redis-session-data.ts';
import { SESSION_LUA, TURN_QUEUE_LUA } from './turn-queue-lua.ts';

// KEYS q e n, then m a l with a turn to store. ARGV token, then with a turn: ttl_ms language
// answer question_item answer_item. -> 1 when the caller's entry was there, 0 when it was not.
export const CHAT_END = `${TURN_QUEUE_LUA}${SESSION_LUA}
local holds = head_is(KEYS[1], ARGV[1])
local removed = leave_entry(KEYS[1], KEYS[2], KEYS[3], ARGV[1])
if holds and #KEYS == 6 then
  append_turn(KEYS[4], KEYS[5], KEYS[6], tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5], ARGV[6])
end
return removed`;

/** A turn to store with the leave: the session's keys m a l and what to write. */
export interface TurnRecord {
  readonly sessionKeys: readonly [string, string, string];
  readonly ttlMs: number;
  readonly write: SessionWrite;
}

export function endCall(turnKeys: readonly string[], token: string, record: TurnRecord | undefined): { keys: string[]; args: (string | number)[] } {
  if (record === undefined) return { keys: [...turnKeys], args: [token] };
  const { write } = record;
  return {
    keys: [...turnKeys, ...record.sessionKeys],
    args: [token, record.ttlMs, write.language, write.answer, write.messages[0], write.messages[1]],
  };
}
