/**
 * The one retry rule both outbox stores follow (docs/operations.md#handoffs-and-dead-letters): a retryable failure is tried again
 * after an exponential backoff with full jitter (1 s .. 60 s apart by default) until
 * HANDOFF_MAX_AGE_S has passed since the handoff was written or re-queued; a permanent failure or
 * an expired handoff is dead-lettered.
 */
import { backoffDelayMs, type BackoffPolicy } from '../clients/backoff.ts';
import type { DeliveryOutcome } from '../clients/handoff-client.ts';

export interface RetryPolicy {
  readonly backoff: BackoffPolicy;
  /** HANDOFF_MAX_AGE_S in ms: no attempt starts later than this after the handoff was (re-)queued. */
  readonly maxAgeMs: number;
}

export const DEFAULT_HANDOFF_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 60_000 };

export type NextStep =
  | { readonly kind: 'done' }
  | { readonly kind: 'retry'; readonly delayMs: number; readonly reason: string }
  | { readonly kind: 'dead'; readonly reason: string };

/** Whether a handoff (re-)queued at `queuedAt` may no longer be attempted. */
export function isExpired(queuedAt: number, now: number, policy: RetryPolicy): boolean {
  return now - queuedAt >= policy.maxAgeMs;
}

/** The reason a handoff that ran out of time is dead-lettered with. */
export function expiredReason(lastReason: string | null): string {
  return lastReason === null ? 'expired' : `expired: ${lastReason}`;
}

/** What follows attempt number `attempts` (1 = the first) of a handoff (re-)queued at `queuedAt`. */
export function afterAttempt(outcome: DeliveryOutcome, attempts: number, queuedAt: number, now: number, policy: RetryPolicy): NextStep {
  if (outcome.result === 'delivered') return { kind: 'done' };
  if (outcome.result === 'permanent') return { kind: 'dead', reason: outcome.reason };
  if (isExpired(queuedAt, now, policy)) return { kind: 'dead', reason: expiredReason(outcome.reason) };
  return { kind: 'retry', delayMs: backoffDelayMs(attempts, policy.backoff), reason: outcome.reason };
}
