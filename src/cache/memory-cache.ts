/**
 * In-process session cache (the default when no Redis is configured), on lru-cache bounded twice: at
 * most `maxSessions` sessions (CACHE_MAX_SESSIONS) and at most `maxBytes` of heap (CACHE_MAX_BYTES,
 * docs/api.md#limits), whichever is reached first; the least recently used sessions go first. A session's
 * size is counted honestly (src/cache/heap-bytes.ts: 2 bytes per UTF-16 code unit) and each stored
 * message is cut to STORED_TEXT_MAX_UNITS, so callers choosing long emoji messages cannot make the
 * cache outgrow its bytes. Reads count as use (an active session stays).
 *
 * Expiry: each entry carries its own `expiresAt` from the injected clock and is checked on every
 * read, so an expired entry never answers; lru-cache's TTL (on the same clock) lets the memory of
 * sessions nobody reads again go first. A write refreshes the TTL; a read does not.
 */
import { LRUCache } from 'lru-cache';
import { heapBytesOnce, messageBytes, stringBytes } from './heap-bytes.ts';
import {
  appendTurn, sessionKeyString, silentCacheEvents,
  type CacheEvents, type SessionCache, type SessionEntry, type SessionKey, type Turn,
} from './session-cache.ts';
import { toError } from '../errors.ts';

/** CACHE_MAX_BYTES default: 64 MiB of the 384 MiB heap of the Kubernetes pod. */
export const DEFAULT_CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** What lru-cache keeps per entry besides the session (its slots, the stored wrapper). */
const ENTRY_OVERHEAD = 160;

export interface MemoryCacheOptions {
  maxSessions: number;
  /** Heap bytes the cache may hold (default DEFAULT_CACHE_MAX_BYTES). */
  maxBytes?: number;
  ttlSeconds: number;
  now?: () => number;
  events?: CacheEvents;
}

interface StoredEntry { entry: SessionEntry; expiresAt: number; bytes: number }

export interface MemorySessionCache extends SessionCache {
  /** Sessions held right now; never above maxSessions. Read once per scrape by the `chat_adapter_cache_sessions` gauge. */
  countSessions(): number;
  /** Heap bytes held by the sessions (as counted against maxBytes). */
  heldBytes(): number;
}

/**
 * Copies down to each message and answer, so a caller changing what it got never changes the cache;
 * the engine reply objects inside answers are shared (a deep copy per read would cost more than the
 * lookup itself) and must be treated as read-only.
 */
function copyEntry(entry: SessionEntry): SessionEntry {
  const copy: SessionEntry = {
    messages: entry.messages.map((m) => ({ ...m })),
    answers: entry.answers.map((a) => ({ ...a })),
  };
  if (entry.language !== undefined) copy.language = entry.language;
  return copy;
}

export function createMemoryCache(opts: MemoryCacheOptions): MemorySessionCache {
  if (!Number.isInteger(opts.maxSessions) || opts.maxSessions < 1) {
    throw new RangeError('maxSessions must be a positive integer');
  }
  const maxBytes = opts.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new RangeError('maxBytes must be a positive integer');
  if (!(opts.ttlSeconds > 0)) throw new RangeError('ttlSeconds must be positive');
  const now = opts.now ?? Date.now;
  const events = opts.events ?? silentCacheEvents;
  const ttlMs = opts.ttlSeconds * 1000;
  // An answer is sized once (it stays in the session across up to 8 turns); a message is two strings.
  const sizeOf = (id: string, entry: SessionEntry): number => {
    let bytes = ENTRY_OVERHEAD + stringBytes(id);
    for (const message of entry.messages) bytes += messageBytes(message);
    for (const answer of entry.answers) bytes += heapBytesOnce(answer);
    return bytes;
  };
  const lru = new LRUCache<string, StoredEntry>({
    max: opts.maxSessions,
    maxSize: maxBytes,
    sizeCalculation: (stored) => stored.bytes,
    ttl: ttlMs,
    ttlAutopurge: false,
    perf: { now },
    ttlResolution: 0,
  });

  function live(id: string): StoredEntry | undefined {
    const stored = lru.get(id);
    if (stored === undefined) return undefined;
    if (stored.expiresAt <= now()) {
      lru.delete(id);
      return undefined;
    }
    return stored;
  }

  return {
    countSessions() {
      let count = 0;
      const at = now();
      for (const stored of lru.values()) if (stored.expiresAt > at) count += 1;
      return count;
    },
    heldBytes: () => lru.calculatedSize,
    async get(key: SessionKey) {
      try {
        const stored = live(sessionKeyString(key));
        return stored === undefined ? undefined : copyEntry(stored.entry);
      } catch (err) {
        events.error('get', toError(err));
        return undefined;
      }
    },
    async recordTurn(key: SessionKey, turn: Turn) {
      try {
        const id = sessionKeyString(key);
        const at = now();
        const entry = appendTurn(live(id)?.entry, turn, at);
        // A session larger than the whole bound is not kept (lru-cache refuses it); the old one goes.
        const bytes = sizeOf(id, entry);
        if (bytes > maxBytes) lru.delete(id);
        else lru.set(id, { entry, expiresAt: at + ttlMs, bytes });
      } catch (err) {
        events.error('recordTurn', toError(err));
      }
    },
    async ping() {
      return true;
    },
    async close() {
      lru.clear();
    },
  };
}
