/**
 * The session cache (docs/api.md#session-cache): per session, the last 8 messages, the replies given to
 * earlier questions and the reply language, kept 7200 s after the last write. Two implementations:
 * memory-cache.ts (one process, bounded in sessions and bytes) and redis-cache.ts (shared by every instance).
 * A cache is best-effort: no method ever throws; a backend failure is reported through
 * `CacheEvents.error` and reads as a miss.
 */
import type { HistoryItem } from '../../schemas/chat-request.schema.ts';
import type { EngineReply } from '../../schemas/engine.schema.ts';
import { heapBytesOnce } from './heap-bytes.ts';

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

export interface SessionKey { orgId: string; propertyId: string; sessionId: string }

export interface CachedAnswer {
  question: string;
  reply: EngineReply;
  at: number; // epoch ms
  /** The text delivered for this reply (formatted, translated when Spanish). */
  answer?: string;
  /** The language that text was delivered in. */
  language?: 'en' | 'es';
}

export interface SessionEntry {
  messages: HistoryItem[]; // last 8 messages of the session (user and assistant), oldest first
  answers: CachedAnswer[]; // replies given to earlier questions (at most 8, newest last)
  language?: 'en' | 'es'; // language the session last replied in
}

export interface Turn {
  question: string;
  answer: string;
  /** The engine's reply the answer came from; absent for a stopped reply, which the history keeps but no later question reuses. */
  reply?: EngineReply | undefined;
  language: 'en' | 'es';
}

export interface CacheEvents { error(operation: string, err: Error): void }

export interface SessionCache {
  /** Never throws: on backend failure -> events.error + undefined. */
  get(key: SessionKey): Promise<SessionEntry | undefined>;
  /** Appends question + answer to messages, the reply to answers, sets language, refreshes TTL. Never throws. */
  recordTurn(key: SessionKey, turn: Turn): Promise<void>;
  /** Sessions held by this process (the in-process cache); absent where sessions live in a shared backend. */
  countSessions?(): number;
  /** True when the backend answers now (the in-process cache always does): what readiness asks. Never throws. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const silentCacheEvents: CacheEvents = { error() {} };

/**
 * One string per session that no choice of ids can make collide with another session's: a JSON
 * array of the three ids is self-delimiting (quotes, colons and backslashes inside an id are escaped).
 */
export function sessionKeyString(key: SessionKey): string {
  return JSON.stringify([key.orgId, key.propertyId, key.sessionId]);
}

/**
 * The session as one short string (turn queue, rate limits, Redis keys): base64url of
 * `sessionKeyString`, so no two sessions share one, and free of ':' and braces, so it is an exact
 * Redis Cluster hash tag inside `{...}`.
 */
export function sessionNameOfKey(key: SessionKey): string {
  return Buffer.from(sessionKeyString(key)).toString('base64url');
}

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
