/**
 * Where the answers to idempotent requests are kept (docs/api.md#idempotency). A record is addressed by its
 * scope id (the request id derived from orgId and the key, src/pipeline/request-id.ts) and holds
 * the request's fingerprint: first an in-flight claim, then the first 200 answer, kept for
 * IDEMPOTENCY_TTL_S. A failed attempt's claim is released, so a retry runs again.
 */

/** The answer kept for replay: status and the body exactly as it was sent. */
export interface KeptAnswer {
  readonly status: number;
  readonly body: string;
}

/** This request holds the key: exactly one of `complete` or `release` is called, once. */
export interface HeldClaim {
  readonly outcome: 'claimed';
  /** Keeps the answer for replay (the first 200). */
  complete(answer: KeptAnswer): Promise<void>;
  /** Forgets the claim (the attempt failed): a retry runs again. */
  release(): Promise<void>;
}

export type Claim =
  | HeldClaim
  /** The same key and request: answer with the kept answer. */
  | { readonly outcome: 'replay'; readonly answer: KeptAnswer }
  /** The same key and request is still being processed (a different request is a mismatch). */
  | { readonly outcome: 'in_flight' }
  /** The same key was used for a different request. */
  | { readonly outcome: 'mismatch' };

export interface IdempotencyStore {
  /** Claims `scope` for a request with `fingerprint`, or says what holds it. Never throws. */
  claim(scope: string, fingerprint: string): Promise<Claim>;
  close(): Promise<void>;
}

/**
 * A claim named before it is sent (`SET key value PX ms NX`), then `held` when it was set, or
 * `judge` with the record that held the key.
 */
export interface PreparedClaim {
  readonly key: string;
  readonly value: string;
  readonly ms: number;
  held(): HeldClaim;
  judge(record: string): Exclude<Claim, HeldClaim>;
}

/** What a store reports; wired to the logger and metrics by compose.ts. */
export interface IdempotencyStoreEvents {
  /** The shared store could not be used for one request; the in-process one served it. */
  fallback(operation: string, err: Error): void;
}

export const silentIdempotencyEvents: IdempotencyStoreEvents = { fallback: () => {} };

// Re-exported for the idempotency hook, which takes it from here.
export { toError } from '../errors.ts';
