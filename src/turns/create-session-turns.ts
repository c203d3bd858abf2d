/**
 * One turn at a time per session (docs/api.md#one-turn-at-a-time-per-session): the in-process line
 * (local-turn-queue.ts) always, and with REDIS_URL the shared queue (shared-session-turns.ts) on
 * top, so two instances never run turns of one session at once. The start of a chat also claims
 * its Idempotency-Key and counts its rate limits (docs/api.md#rate-limits) when it is handed them:
 * with Redis all in one round trip, together with reading the session when the turn is free.
 */
import type { Cluster, Redis } from 'ioredis';
import type { ScriptReporting } from '../shared-state/redis-script.ts';
import { createLocalTurnQueue } from './local-turn-queue.ts';
import { isRefused, type WindowCount } from './rate-windows.ts';
import type { SessionTurnEvents, SessionTurns } from './session-turns.ts';
import { sharedTurns } from './shared-session-turns.ts';

export interface SessionTurnsConfig {
  readonly redis?: Redis | Cluster | undefined;
  readonly events?: SessionTurnEvents;
  /** Told of every Redis script call (the Redis latency metric, and its span under a chat's). */
  readonly redisTelemetry?: ScriptReporting | undefined;
  /**
   * CACHE_TIMEOUT: with it, the shared queue reads the session with the turn and stores the turn
   * with the leave (the session cache's keys and writes); without it the cache does both.
   */
  readonly sessionTtlSeconds?: number;
}

const silent: SessionTurnEvents = { fallback: () => {}, leaseExpired: () => {} };
const NONE: readonly WindowCount[] = [];

export function createSessionTurns(config: SessionTurnsConfig = {}): SessionTurns {
  const local = createLocalTurnQueue();
  if (config.redis !== undefined) return sharedTurns(local, config.redis, config.events ?? silent, config.sessionTtlSeconds, config.redisTelemetry);
  return {
    get activeSessions() {
      return local.activeSessions;
    },
    async begin(sessionKey, deadlineAt, start) {
      if (start.claim !== undefined && !(await start.claim())) return { kind: 'answered' };
      const counts = start.limits === undefined ? NONE : await start.limits.countLocally();
      if (isRefused(counts)) return { kind: 'refused', counts };
      const turn = await local.acquire(sessionKey, deadlineAt, start.callerGone);
      // A caller that left while its message waited: it never ran, so it is not counted.
      if (turn === undefined && start.callerGone?.aborted === true) start.limits?.uncountLocally();
      return { kind: 'turn', counts, turn };
    },
  };
}
