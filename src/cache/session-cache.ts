/**
 * The session cache (docs/api.md#session-cache): per session, the last 8 messages, the replies given to
 * earlier questions and the reply language, kept 7200 s after the last write. Two implementations:
 * memory-cache.ts (one process, bounded in sessions and bytes) and redis-cache.ts (shared by every instance).
 * A cache is best-effort: no method ever throws; a backend failure is reported through
 * `CacheEvents.error` and reads as a miss.
 */
import type { HistoryItem } from '../../schemas/chat-request.schema.ts';
import type { CacheEvents, CachedAnswer, SessionEntry, Turn } from '../pipeline/session-cache-port.ts';
import { heapBytesOnce } from './heap-bytes.ts';

// The port this folder implements; its types are named here too, where the implementations look for them.
export type { CacheEvents, CachedAnswer, SessionCache, SessionEntry, SessionKey, Turn } from '../pipeline/session-cache-port.ts';
export { sessionKeyString, sessionNameOfKey } from '../pipeline/session-cache-port.ts';

export const MAX_SESSION_MESSAGES = 8;
export const MAX_SESSION_ANSWERS = 8;
export const DEFAULT_SESSION_TTL_SECONDS = 7200;
/**
 * The longest text kept per stored message, in UTF-16 code units: 8000, so any valid message
 * (4000 characters, even when every one is an emoji) is kept whole, and a longer reply is cut.
 */
export const STORED_TEXT_MAX_UNITS = 8000;
/**
 * An earlier reply is kept for reuse only up to this size of heap (question and engine reply): an
 * ordinary reply is 1-3 KiB; a huge one (the engine may answer up to 256 KiB) is not worth holding.
 */
export const REUSABLE_ANSWER_MAX_BYTES = 32 * 1024;

export const silentCacheEvents: CacheEvents = { error() {} };

/** The text cut to STORED_TEXT_MAX_UNITS, never leaving half of a surrogate pair at the cut. */
export function storedText(text: string): string {
  if (text.length <= STORED_TEXT_MAX_UNITS) return text;
  const cut = text.charCodeAt(STORED_TEXT_MAX_UNITS - 1);
  const end = cut >= 0xd800 && cut <= 0xdbff ? STORED_TEXT_MAX_UNITS - 1 : STORED_TEXT_MAX_UNITS;
  return text.slice(0, end);
}

/** Whether an answer is small enough to be kept for reuse (REUSABLE_ANSWER_MAX_BYTES). */
export function isKeptForReuse(answer: CachedAnswer): boolean {
  return answer.question.length <= STORED_TEXT_MAX_UNITS && heapBytesOnce(answer) <= REUSABLE_ANSWER_MAX_BYTES;
}

/**
 * The two messages and the cached answer that one turn adds (message text cut to STORED_TEXT_MAX_UNITS);
 * no answer for a turn without an engine reply (a stopped one).
 */
export function turnRecords(turn: Turn, at: number): { messages: [HistoryItem, HistoryItem]; answer: CachedAnswer | undefined } {
  return {
    messages: [
      { role: 'user', content: storedText(turn.question) },
      { role: 'assistant', content: storedText(turn.answer) },
    ],
    answer: turn.reply === undefined ? undefined : { question: turn.question, reply: turn.reply, at, answer: turn.answer, language: turn.language },
  };
}

/**
 * The entry after one more turn: a new object (the old one is left untouched), lists trimmed; the
 * reply is kept for reuse only when isKeptForReuse says so.
 */
export function appendTurn(entry: SessionEntry | undefined, turn: Turn, at: number): SessionEntry {
  const added = turnRecords(turn, at);
  const answers = entry?.answers ?? [];
  return {
    messages: [...(entry?.messages ?? []), ...added.messages].slice(-MAX_SESSION_MESSAGES),
    answers: added.answer !== undefined && isKeptForReuse(added.answer) ? [...answers, added.answer].slice(-MAX_SESSION_ANSWERS) : [...answers],
    language: turn.language,
  };
}
