/**
 * Picks the idempotency store (docs/api.md#idempotency): in-process without a Redis configured; with one, Redis, and
 * for a request during which Redis cannot be reached, the in-process store (docs/api.md#when-a-party-fails: a
 * Redis fault never fails a chat). Such a request is then idempotent on this instance only; a
 * retry elsewhere runs again and still stores nothing twice (the same clientMessageKey).
 */
import type { RedisClient } from '../shared-state/redis-connection.ts';
import type { ReplicaAcks } from '../shared-state/replica-ack.ts';
import {
  silentIdempotencyEvents, toError,
  type Claim, type HeldClaim, type IdempotencyStore, type IdempotencyStoreEvents, type PreparedClaim,
} from './idempotency-store.ts';
import { createMemoryIdempotencyStore, type MemoryIdempotencyStore } from './memory-idempotency-store.ts';
import { isCommandTimeout } from '../shared-state/command-timeout.ts';
import { createRedisIdempotencyStore } from './redis-idempotency-store.ts';

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
  /** Told of every Redis script call (the Redis latency metric). */
  readonly observeRedis?: ((script: string, seconds: number, ok: boolean) => void) | undefined;
}

export interface IdempotencyStores extends IdempotencyStore {
  /** The in-process store (the only one, or Redis's fallback). */
  readonly local: MemoryIdempotencyStore;
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
    observe: config.observeRedis,
    ...(config.replicaAcks === undefined ? {} : { replicaAcks: config.replicaAcks }),
  });
  const quietly = async (operation: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (err) {
      // The claim then expires by itself; until then a retry is answered 409.
      events.fallback(operation, toError(err));
    }
  };
  const quiet = (claim: HeldClaim): HeldClaim => ({
    outcome: 'claimed',
    complete: (answer) => quietly('complete', () => claim.complete(answer)),
    release: () => quietly('release', () => claim.release()),
  });
  /**
   * Claims in process because Redis could not (`reason`). `sent`: the claim that was sent to Redis
   * and whose reply was lost; it may still be made there when Redis resumes, so it is settled as
   * the in-process claim is.
   */
  async function claimLocally(scope: string, fingerprint: string, reason: Error, sent: PreparedClaim | undefined): Promise<Claim> {
    events.fallback('claim', reason);
    const claim = await local.claim(scope, fingerprint);
    if (sent === undefined) return claim;
    // Without this, a script that ran late would hold the key "in flight" on Redis until the claim
    // expires (REQUEST_TIMEOUT_MS and more): every retry elsewhere a 409. Not waited for: the
    // answer goes out at once whatever Redis does; each command acts only on this claim's own value.
    const shared = quiet(sent.held());
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

  return {
    local,
    async claim(scope, fingerprint): Promise<Claim> {
      const prepared = shared.prepare(scope, fingerprint);
      let claim: Claim;
      try {
        claim = await shared.claimPrepared(prepared);
      } catch (err) {
        const reason = toError(err);
        // A claim whose reply was lost (a stall) may still be made on Redis when it resumes: settled as the local one is.
        return claimLocally(scope, fingerprint, reason, isCommandTimeout(reason) ? prepared : undefined);
      }
      return claim.outcome === 'claimed' ? quiet(claim) : claim;
    },
    close: () => local.close(),
  };
}
