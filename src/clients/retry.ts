import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelayMs, type BackoffPolicy } from './backoff.ts';

export interface RetryPolicy extends BackoffPolicy {
  /** Total tries, including the first (at least 1). */
  readonly attempts: number;
}

export interface RetryOptions {
  readonly policy: RetryPolicy;
  /**
   * docs/api.md#deadline: no retry is waited for or started when its wait would reach this instant (the
   * chat's deadline, on the `performance.now()` clock); the last failure is thrown instead.
   */
  readonly deadlineAt?: number | undefined;
  /** Whether a failure is worth another try (default: every failure is). */
  readonly retryable?: (err: unknown) => boolean;
  /** Told of every failed try, retried or not (spans, metrics, logs). */
  readonly onFailure?: (err: unknown, attempt: number) => void;
  /** Injectable for tests: the wait between tries, the randomness of the jitter, the clock. */
  readonly sleep?: (ms: number) => Promise<unknown>;
  readonly random?: () => number;
  readonly now?: () => number;
}

/**
 * Runs `run` until it succeeds, at most `policy.attempts` times, waiting an exponential backoff
 * with full jitter (`backoffDelayMs`) between tries. Only for calls that are safe to repeat. Throws
 * the last failure unchanged.
 */
export async function withRetries<T>(run: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const attempts = Math.max(1, Math.floor(options.policy.attempts));
  const now = options.now ?? (() => performance.now());
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (err) {
      options.onFailure?.(err, attempt);
      if (attempt >= attempts || options.retryable?.(err) === false) throw err;
      const delay = backoffDelayMs(attempt, options.policy, options.random);
      if (options.deadlineAt !== undefined && now() + delay >= options.deadlineAt) throw err;
      await (options.sleep ?? sleep)(delay);
    }
  }
}
