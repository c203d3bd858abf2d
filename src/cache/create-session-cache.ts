/**
 * Picks the session cache implementation from configuration (docs/configuration.md, docs/api.md#session-cache): Redis when
 * REDIS_URL is set (sessions shared by every instance), otherwise the in-process cache, bounded in sessions and bytes.
 * The Redis cache (and with it ioredis, several MiB of memory) is loaded only when it is chosen.
 */
import { createMemoryCache } from './memory-cache.ts';
import { DEFAULT_SESSION_TTL_SECONDS, type CacheEvents, type SessionCache } from './session-cache.ts';

export interface SessionCacheConfig {
  /** REDIS_URL; unset or empty selects the in-process cache. */
  redisUrl?: string | undefined;
  ttlSeconds?: number;
  /** CACHE_MAX_SESSIONS: the bound of the in-process cache (see src/config/load-config.ts). */
  maxSessions: number;
  /** CACHE_MAX_BYTES: the heap the in-process cache may hold. */
  maxBytes?: number;
  commandTimeoutMs?: number;
  events?: CacheEvents;
}

export async function createSessionCache(config: SessionCacheConfig): Promise<SessionCache> {
  const ttlSeconds = config.ttlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
  const events = config.events === undefined ? {} : { events: config.events };
  if (config.redisUrl) {
    const { createRedisCache } = await import('./redis-cache.ts');
    const timeout = config.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: config.commandTimeoutMs };
    return createRedisCache({ url: config.redisUrl, ttlSeconds, ...timeout, ...events });
  }
  return createMemoryCache({ maxSessions: config.maxSessions, ttlSeconds, ...(config.maxBytes === undefined ? {} : { maxBytes: config.maxBytes }), ...events });
}
