/**
 * The session cache as the pipeline sees it (docs/api.md#session-cache): what a session is called,
 * what is kept of it, and the calls the steps make. Implemented by src/cache/ (in process and Redis),
 * which also holds the bounds and the write rules.
 */
import type { HistoryItem } from '../../schemas/chat-request.schema.ts';
import type { EngineReply } from '../../schemas/engine.schema.ts';

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
