/**
 * The in-process idempotency store (no Redis configured, or Redis unreachable for a request). Claims in
 * flight live in a plain Map (at most one per request being processed, never evicted, each with an
 * expiry in case its request never settles); kept answers in an LRU bounded in entries and bytes,
 * each expiring after IDEMPOTENCY_TTL_S. An answer evicted early only means that a late retry runs
 * again, which stores nothing twice (its clientMessageKey is the same).
 */
import { LRUCache } from 'lru-cache';
import { heapBytes, stringBytes } from '../cache/heap-bytes.ts';
import type { Claim, IdempotencyStore, KeptAnswer } from './idempotency-store.ts';

/** IDEMPOTENCY_MAX_BYTES default: 32 MiB of the 384 MiB heap of the Kubernetes pod. */
export const DEFAULT_IDEMPOTENCY_MAX_BYTES = 32 * 1024 * 1024;
/** What lru-cache keeps per entry besides the answer (its slots, the stored wrapper). */
const ENTRY_OVERHEAD = 160;

export interface MemoryIdempotencyOptions {
  readonly ttlSeconds: number;
  /** A claim whose request never settles is forgotten after this many ms. */
  readonly claimMs: number;
  /** Bound on kept answers. */
  readonly maxKeys: number;
  /** Bound on the heap bytes of kept answers (default DEFAULT_IDEMPOTENCY_MAX_BYTES). */
  readonly maxBytes?: number;
  readonly now?: () => number;
}

interface InFlight {
  readonly fingerprint: string;
  readonly expiresAt: number;
}

interface Kept {
  readonly fingerprint: string;
  readonly answer: KeptAnswer;
}

export interface MemoryIdempotencyStore extends IdempotencyStore {
  /** Claims in flight (for the no-growth test). */
  readonly inFlight: number;
}

export function createMemoryIdempotencyStore(options: MemoryIdempotencyOptions): MemoryIdempotencyStore {
  const now = options.now ?? Date.now;
  const inFlight = new Map<string, InFlight>();
  const kept = new LRUCache<string, Kept>({
    max: options.maxKeys,
    maxSize: options.maxBytes ?? DEFAULT_IDEMPOTENCY_MAX_BYTES,
    // Counted as heap, not as characters: 2 bytes per UTF-16 code unit, the scope key included.
    sizeCalculation: (entry, scope) => ENTRY_OVERHEAD + stringBytes(scope) + heapBytes(entry.fingerprint) + heapBytes(entry.answer),
    ttl: options.ttlSeconds * 1000,
    ttlAutopurge: false,
    perf: { now },
    ttlResolution: 0, // read the clock on every check (no cached "now")
  });

  return {
    get inFlight() {
      return inFlight.size;
    },
    async claim(scope, fingerprint): Promise<Claim> {
      const done = kept.get(scope);
      if (done !== undefined) return done.fingerprint === fingerprint ? { outcome: 'replay', answer: done.answer } : { outcome: 'mismatch' };
      const running = inFlight.get(scope);
      if (running !== undefined && running.expiresAt > now()) {
        return running.fingerprint === fingerprint ? { outcome: 'in_flight' } : { outcome: 'mismatch' };
      }
      const mine: InFlight = { fingerprint, expiresAt: now() + options.claimMs };
      inFlight.set(scope, mine);
      // Only the holder's own claim is settled: one that expired and was taken over stays.
      const settle = () => {
        if (inFlight.get(scope) === mine) inFlight.delete(scope);
      };
      return {
        outcome: 'claimed',
        async complete(answer) {
          settle();
          kept.set(scope, { fingerprint, answer });
        },
        async release() {
          settle();
        },
      };
    },
    async close() {
      inFlight.clear();
      kept.clear();
    },
  };
}
