/**
 * Exponential backoff with full jitter (the AWS architecture blog's "full jitter"): the n-th retry
 * waits a uniformly random time between 0 and min(cap, base * 2^(n-1)), so many callers that failed
 * together do not all come back together. Used by every retrying caller: GraphQL calls and the
 * handoff outbox.
 */
export interface BackoffPolicy {
  /** Upper bound of the first retry's wait, ms. */
  readonly baseMs: number;
  /** No wait is ever longer than this, ms. */
  readonly capMs: number;
}

/** The wait before retry number `retry` (1 = the first retry); `random` in [0, 1). */
export function backoffDelayMs(retry: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}
