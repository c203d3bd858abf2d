/**
 * How sessions are laid out in Redis (see redis-cache.ts) and read back: key names, and checked
 * parsing of what Redis returns (damaged data is an error, never a half-valid session).
 */
import type { HistoryItem } from '../../schemas/chat-request.schema.ts';
import { sessionNameOfKey, turnRecords, type CachedAnswer, type SessionEntry, type SessionKey, type Turn } from './session-cache.ts';

export interface SessionKeys { messages: string; answers: string; language: string }

/** The namespace of every key of a session (its conversation and its turn queue) unless given its own. */
export const SESSION_KEY_PREFIX = 'chat-adapter:';

/**
 * `<prefix>{<session name>}`: the base of every key of one session (session-cache.ts
 * `sessionNameOfKey`: injective and free of braces, so `{<name>}` is an exact Cluster hash tag).
 * The kept conversation (here) and the turn queue (src/turns/redis-turn-queue.ts) share it, so a
 * chat's scripts touch one hash slot on any Redis topology.
 */
export function sessionSlot(prefix: string, sessionName: string): string {
  return `${prefix}{${sessionName}}`;
}

/** The kept conversation's keys within the session's slot. */
export function sessionKeysOfSlot(slot: string): SessionKeys {
  return { messages: `${slot}:messages`, answers: `${slot}:answers`, language: `${slot}:language` };
}

export function sessionKeys(prefix: string, key: SessionKey): SessionKeys {
  return sessionKeysOfSlot(sessionSlot(prefix, sessionNameOfKey(key)));
}

/** What one turn writes: the two history items, the cached answer (JSON each; none for a stopped turn) and the language. */
export interface SessionWrite { messages: [string, string]; answer: string | undefined; language: 'en' | 'es' }

export function sessionWriteOf(turn: Turn, at: number): SessionWrite {
  const added = turnRecords(turn, at);
  return {
    messages: [JSON.stringify(added.messages[0]), JSON.stringify(added.messages[1])],
    answer: added.answer === undefined ? undefined : JSON.stringify(added.answer),
    language: turn.language,
  };
}

/**
 * The session from what Redis returned for its three keys (messages, answers, language); undefined
 * when nothing is kept. Throws on damaged data.
 */
export function sessionEntryOf(rawMessages: unknown, rawAnswers: unknown, language: unknown): SessionEntry | undefined {
  const entry: SessionEntry = { messages: parseList(rawMessages, isHistoryItem), answers: parseList(rawAnswers, isCachedAnswer) };
  if (language === 'en' || language === 'es') entry.language = language;
  const empty = entry.messages.length === 0 && entry.answers.length === 0 && entry.language === undefined;
  return empty ? undefined : entry;
}

export function parseList<T>(raw: unknown, isItem: (value: unknown) => value is T): T[] {
  if (!Array.isArray(raw)) throw new Error('unexpected reply shape from Redis');
  return raw.map((text) => {
    const value: unknown = JSON.parse(String(text));
    if (!isItem(value)) throw new Error('malformed session data in Redis');
    return value;
  });
}

export const isHistoryItem = (v: unknown): v is HistoryItem =>
  typeof v === 'object' && v !== null &&
  ((v as HistoryItem).role === 'user' || (v as HistoryItem).role === 'assistant') &&
  typeof (v as HistoryItem).content === 'string';

export const isCachedAnswer = (v: unknown): v is CachedAnswer =>
  typeof v === 'object' && v !== null && typeof (v as CachedAnswer).question === 'string' &&
  typeof (v as CachedAnswer).at === 'number' && typeof (v as CachedAnswer).reply?.response === 'string' &&
  typeof (v as CachedAnswer).reply?.retrieval_type === 'string';

/** MULTI replies come as [error, result] pairs: the first error is thrown. */
export function results(replies: Array<[Error | null, unknown]> | null): unknown[] {
  if (replies === null) throw new Error('redis transaction aborted');
  return replies.map(([err, value]) => {
    if (err) throw err;
    return value;
  });
}
