import { performance } from 'node:perf_hooks';
import { DownstreamError, type DownstreamParty } from '../errors.ts';
import type { TimeLimited } from './call-failure.ts';

/** How long one call may take: its party's own timeout, or less when the chat has less left. */
export interface CallLimit extends TimeLimited {
  readonly ms: number;
}

/**
 * CONTRACTS 6.1: the smaller of the party's timeout and the time left before `deadlineAt` (on the
 * `performance.now()` clock). When nothing is left the call is not made: the chat is already late.
 */
export function callLimit(party: DownstreamParty, timeoutMs: number, deadlineAt?: number): CallLimit {
  if (deadlineAt === undefined) return { ms: timeoutMs, byDeadline: false };
  const left = Math.floor(deadlineAt - performance.now());
  if (left <= 0) throw new DownstreamError(party, 'not called: the chat deadline has passed');
  return left < timeoutMs ? { ms: left, byDeadline: true } : { ms: timeoutMs, byDeadline: false };
}

export interface CallTimer {
  /** Aborted with a `TimeoutError` (as `AbortSignal.timeout` would) when the limit is reached. */
  readonly signal: AbortSignal;
  /** Called when the call settles, so no timer outlives its call. */
  clear(): void;
}

/**
 * A timeout signal whose timer is cleared when the call settles. `AbortSignal.timeout` cannot be
 * cleared: after every call it kept a signal and a timer alive for the whole timeout (30 s for the
 * engine), tens of thousands of them under load.
 */
export function startCallTimer(limit: CallLimit): CallTimer {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), limit.ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
