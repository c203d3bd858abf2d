/**
 * Picks the idempotency store (docs/api.md#idempotency): in-process without a Redis configured; with one, Redis, and
 * for a request during which Redis cannot be reached, the in-process store (docs/api.md#when-a-party-fails: a
 * Redis fault never fails a chat). Such a request is then idempotent on this instance only; a
 * retry elsewhere runs again and still stores nothing twice (the same clientMessageKey).
 */
import type { RedisClient } from '../shared-state/redis-connection.ts';
import type { ReplicaAcks } from '../shared-state/replica-ack.ts';
import type { ScriptReporting } from '../shared-state/redis-script.ts';
import {
  silentIdempotencyEvents,
  type Claim, type HeldClaim, type IdempotencyStore, type IdempotencyStoreEvents, type PreparedClaim,
} from './idempotency-store.ts';
import { createMemoryIdempotencyStore, type MemoryIdempotencyStore } from './memory-idempotency-store.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { createRedisIdempotencyStore } from './redis-idempotency-store.ts';
import { toError } from '../errors.ts';

/** Default bound of kept answers in process; a kept chat answer is about 1-3 KB. */
export const DEFAULT_IDEMPOTENCY_MAX_KEYS = 20_000;
/** How much longer than the request deadline a claim outlives its request (clock skew, slow close). */
export const CLAIM_MARGIN_MS = 5_000;

export interface IdempotencyStoreConfig {
  /** The shared connection when a Redis is configured (any topology). */
  readonly redis?: RedisClient | undefined;
  /** A kept answer is acknowledged by this many replicas before the chat ends (REDIS_WAIT_REPLICAS). */
  readonly replicaAcks?: ReplicaAcks;
  readonly ttlSeconds: number;
  /** REQUEST_TIMEOUT_MS: a claim expires after it plus CLAIM_MARGIN_MS. */
  readonly requestTimeoutMs: number;
  readonly maxKeys?: number;
  /** IDEMPOTENCY_MAX_BYTES: heap the kept answers may hold. */
  readonly maxBytes?: number;
  readonly events?: IdempotencyStoreEvents;
  /** Told of every Redis script call (the Redis latency metric, and its span under a chat's). */
  readonly redisTelemetry?: ScriptReporting | undefined;
}

export interface IdempotencyStores extends IdempotencyStore {
  /** The in-process store (the only one, or Redis's fallback). */
  readonly local: MemoryIdempotencyStore;
}

/** Tries `work` again (backoff 50 ms doubling to 1 s) until it succeeds or `giveUpAt` (Date.now clock) passes. */
async function retryUntil(giveUpAt: number, work: () => Promise<void>): Promise<void> {
  for (let attempt = 0; Date.now() < giveUpAt; attempt += 1) {
    await sleep(Math.min(1_000, 50 * 2 ** attempt), undefined, { ref: false });
    try {
      await work();
      return;
    } catch {
      // Reported once already; the claim expires by itself at the latest.
    }
  }
}

/** What a claim falls back on while Redis does not answer. */
interface Fallback {
  readonly local: MemoryIdempotencyStore;
  readonly events: IdempotencyStoreEvents;
  readonly claimMs: number;
}

/**
 * Settles a claim on Redis: once, waited for; when Redis does not answer (an outage, a failover in
 * progress), reported and tried again behind the chat until the claim would have expired, so the
 * kept answer (or the key's release) lands on Redis once it answers again, and a retry there is a
 * replay instead of a 409 until the claim expires. Each try acts only on this claim's own value.
 */
function quiet(fallback: Fallback, claim: HeldClaim): HeldClaim {
  const quietly = async (operation: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      fallback.events.fallback(operation, toError(err));
      void retryUntil(Date.now() + fallback.claimMs, work);
    }
  };
  return {
    outcome: 'claimed',
    complete: (answer) => quietly('complete', () => claim.complete(answer)),
    release: () => quietly('release', () => claim.release()),
  };
}

/**
 * Claims in process because Redis could not (`reason`). `sent`: the claim that was sent to Redis
 * and whose reply was lost; it may still be made there when Redis resumes, so it is settled as
 * the in-process claim is.
 */
async function claimLocally(fallback: Fallback, scope: string, fingerprint: string, reason: Error, sent: PreparedClaim | undefined): Promise<Claim> {
  fallback.events.fallback('claim', reason);
  const claim = await fallback.local.claim(scope, fingerprint);
  if (sent === undefined) return claim;
  // Without this, a script that ran late would hold the key "in flight" on Redis until the claim
  // expires (REQUEST_TIMEOUT_MS and more): every retry elsewhere a 409. Not waited for: the
  // answer goes out at once whatever Redis does; each command acts only on this claim's own value.
  const shared = quiet(fallback, sent.held());
  if (claim.outcome !== 'claimed') {
    void shared.release();
    return claim;
  }
  return {
    outcome: 'claimed',
    complete: (answer) => {
      void shared.complete(answer);
      return claim.complete(answer);
    },
    release: () => {
      void shared.release();
      return claim.release();
    },
  };
}

export function createIdempotencyStore(config: IdempotencyStoreConfig): IdempotencyStores {
  const claimMs = config.requestTimeoutMs + CLAIM_MARGIN_MS;
  const local = createMemoryIdempotencyStore({
    ttlSeconds: config.ttlSeconds,
    claimMs,
    maxKeys: config.maxKeys ?? DEFAULT_IDEMPOTENCY_MAX_KEYS,
    ...(config.maxBytes === undefined ? {} : { maxBytes: config.maxBytes }),
  });
  if (config.redis === undefined) return { local, claim: (scope, fingerprint) => local.claim(scope, fingerprint), close: () => local.close() };

  const events = config.events ?? silentIdempotencyEvents;
  const shared = createRedisIdempotencyStore({
    client: config.redis,
    ttlSeconds: config.ttlSeconds,
    claimMs,
    telemetry: config.redisTelemetry,
    ...(config.replicaAcks === undefined ? {} : { replicaAcks: config.replicaAcks }),
  });
  const fallback: Fallback = { local, events, claimMs };

  return {
    local,
    async claim(scope, fingerprint): Promise<Claim> {
      const prepared = shared.prepare(scope, fingerprint);
      let claim: Claim;
      try {
        claim = await shared.claimPrepared(prepared);
      } catch (err) {
        const reason = toError(err);
        // Settled on Redis as the local claim is, once Redis answers again: a claim whose reply was
        // lost (a stall, a primary that died under it) may have been made there; and a kept answer
        // is written where no record is, so a retry on another instance after the outage is a replay.
        return claimLocally(fallback, scope, fingerprint, reason, prepared);
      }
      return claim.outcome === 'claimed' ? quiet(fallback, claim) : claim;
    },
    close: () => local.close(),
  };
}
