/**
 * The session cache (docs/api.md#session-cache): per session, the last 8 messages, the replies given to
 * earlier questions and the reply language, kept 7200 s after the last write. Two implementations:
 * memory-cache.ts (quick-lru, one process) and redis-cache.ts (shared by every instance).
 * A cache is best-effort: no method ever throws; a backend failure is reported through
 * `CacheEvents.error` and reads as a miss.
 */
import type { HistoryItem } from '../../schemas/chat-request.schema.ts';
import type { EngineReply } from '../../schemas/engine.schema.ts';

export const MAX_SESSION_MESSAGES = 8;
export const MAX_SESSION_ANSWERS = 8;
export const DEFAULT_SESSION_TTL_SECONDS = 7200;

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

export interface Turn { question: string; answer: string; reply: EngineReply; language: 'en' | 'es' }

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

export function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

/** The two messages and the cached answer that one turn adds. */
export function turnRecords(turn: Turn, at: number): { messages: [HistoryItem, HistoryItem]; answer: CachedAnswer } {
  return {
    messages: [
      { role: 'user', content: turn.question },
      { role: 'assistant', content: turn.answer },
    ],
    answer: { question: turn.question, reply: turn.reply, at, answer: turn.answer, language: turn.language },
  };
}

/** The entry after one more turn: a new object (the old one is left untouched), lists trimmed. */
export function appendTurn(entry: SessionEntry | undefined, turn: Turn, at: number): SessionEntry {
  const added = turnRecords(turn, at);
  return {
    messages: [...(entry?.messages ?? []), ...added.messages].slice(-MAX_SESSION_MESSAGES),
    answers: [...(entry?.answers ?? []), added.answer].slice(-MAX_SESSION_ANSWERS),
    language: turn.language,
  };
}
