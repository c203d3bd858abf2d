/**
 * In-process session cache on quick-lru (the default when REDIS_URL is unset).
 *
 * Bound: quick-lru keeps two generations of up to `maxSize` items each (between maxSize and
 * 2 x maxSize - 1 items in all), so it is given maxSize = ceil(maxSessions / 2): the cache never
 * holds more than `maxSessions` sessions and always keeps at least the ceil(maxSessions / 2) most
 * recently used ones. Reads count as use (an active session stays).
 *
 * Expiry: each entry carries its own `expiresAt` from the injected clock and is checked on every
 * read, so an expired entry never answers; quick-lru's `maxAge` (wall clock) additionally frees the
 * memory of sessions nobody reads again. A write refreshes the TTL; a read does not.
 */
import QuickLRU from 'quick-lru';
import {
  appendTurn, sessionKeyString, silentCacheEvents, toError,
  type CacheEvents, type SessionCache, type SessionEntry, type SessionKey, type Turn,
} from './session-cache.ts';

export interface MemoryCacheOptions {
  maxSessions: number;
  ttlSeconds: number;
  now?: () => number;
  events?: CacheEvents;
}

interface StoredEntry { entry: SessionEntry; expiresAt: number }

export interface MemorySessionCache extends SessionCache {
  /**
   * Sessions held right now; never above maxSessions. Walks the whole cache (a few ms for
   * 20,000 sessions): read once per scrape by the `chat_adapter_cache_sessions` gauge.
   */
  countSessions(): number;
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
  if (!(opts.ttlSeconds > 0)) throw new RangeError('ttlSeconds must be positive');
  const now = opts.now ?? Date.now;
  const events = opts.events ?? silentCacheEvents;
  const ttlMs = opts.ttlSeconds * 1000;
  const lru = new QuickLRU<string, StoredEntry>({ maxSize: Math.ceil(opts.maxSessions / 2), maxAge: ttlMs });

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
      // Not lru.size: quick-lru caps that figure at its maxSize, hiding the older generation.
      let count = 0;
      for (const stored of lru.values()) if (stored.expiresAt > now()) count += 1;
      return count;
    },
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
        lru.set(id, { entry: appendTurn(live(id)?.entry, turn, at), expiresAt: at + ttlMs });
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
