import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../src/clients/backoff.ts';
import { afterAttempt, DEFAULT_HANDOFF_BACKOFF, expiredReason, type RetryPolicy } from '../../src/outbox/delivery-policy.ts';

/** docs/operations.md#handoffs-and-dead-letters: exponential backoff with full jitter, 1 s up to 60 s apart, until HANDOFF_MAX_AGE_S. */
const DAY_MS = 86_400_000;
const policy: RetryPolicy = { backoff: DEFAULT_HANDOFF_BACKOFF, maxAgeMs: DAY_MS };
const retryable = { result: 'retryable', reason: 'status_503' } as const;

describe('the handoff delivery policy', () => {
  it('waits at most 1 s before the first retry, doubling the bound each time, never more than 60 s', () => {
    const longest = (retry: number) => backoffDelayMs(retry, DEFAULT_HANDOFF_BACKOFF, () => 0.999_999);
    expect([1, 2, 3, 4, 5, 6, 7].map(longest)).toEqual([999, 1999, 3999, 7999, 15_999, 31_999, 59_999]);
    expect(longest(30)).toBe(59_999);
    // Full jitter: anything from 0 up, so instances that failed together do not come back together.
    expect(backoffDelayMs(5, DEFAULT_HANDOFF_BACKOFF, () => 0)).toBe(0);
  });

  it('retries a retryable failure while the handoff is younger than HANDOFF_MAX_AGE_S, then dead-letters it', () => {
    const queuedAt = 1_000_000;
    const next = afterAttempt(retryable, 3, queuedAt, queuedAt + DAY_MS - 1, policy);
    expect(next).toMatchObject({ kind: 'retry', reason: 'status_503' });
    expect(next.kind === 'retry' && next.delayMs).toBeLessThan(4_000);
    expect(afterAttempt(retryable, 200, queuedAt, queuedAt + DAY_MS, policy)).toEqual({ kind: 'dead', reason: 'expired: status_503' });
  });

  it('dead-letters a permanent failure at once, and is done on delivery', () => {
    expect(afterAttempt({ result: 'permanent', reason: 'status_400' }, 1, 0, 1, policy)).toEqual({ kind: 'dead', reason: 'status_400' });
    expect(afterAttempt({ result: 'delivered' }, 1, 0, 1, policy)).toEqual({ kind: 'done' });
  });

  it('names why a handoff ran out of time: the last failure when there was one, else plain "expired"', () => {
    // An SQLite handoff found past its age at start-up has never been tried: no last reason.
    expect(expiredReason(null)).toBe('expired');
    expect(expiredReason('timeout')).toBe('expired: timeout');
  });
});
