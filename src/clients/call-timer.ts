import type { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { DownstreamError, type DownstreamParty } from '../errors.ts';
import type { TimeLimited } from './call-failure.ts';

/** How long one call may take: its party's own timeout, or less when the chat has less left. */
export interface CallLimit extends TimeLimited {
  readonly ms: number;
}

/**
 * docs/api.md#deadline: the smaller of the party's timeout and the time left before `deadlineAt` (on the
 * `performance.now()` clock). When nothing is left the call is not made: the chat is already late.
 */
export function callLimit(party: DownstreamParty, timeoutMs: number, deadlineAt?: number): CallLimit {
  if (deadlineAt === undefined) return { ms: timeoutMs, byDeadline: false };
  const left = Math.floor(deadlineAt - performance.now());
  if (left <= 0) throw new DownstreamError(party, 'not called: the chat deadline has passed');
  return left < timeoutMs ? { ms: left, byDeadline: true } : { ms: timeoutMs, byDeadline: false };
}

/**
 * The `signal` undici's `request` is given: undici accepts an EventTarget or an EventEmitter, and for
 * an object without `aborted` it only calls `on`/`once('abort')` and `removeListener`. An
 * AbortController costs about three times as much per call: undici then goes through Node's
 * `addAbortListener` (validation, a disposable, an EventTarget listener) on every request.
 */
interface UndiciSignal {
  readonly reason: unknown;
  on(event: 'abort', listener: () => void): this;
  once(event: 'abort', listener: () => void): this;
  removeListener(event: 'abort', listener: () => void): this;
}

export interface CallTimer {
  /**
   * Fired with a `TimeoutError` (the DOMException `AbortSignal.timeout` would give) when the limit
   * is reached. Typed as the EventEmitter undici's `signal` option names; only `UndiciSignal` is there.
   */
  readonly signal: EventEmitter;
  /** Called when the call settles, so no timer outlives its call. */
  clear(): void;
  /** Fires the signal now with `reason` (a stopped reply), as a timeout would. */
  abort(reason: unknown): void;
}

/** The one-shot `abort` of one call: undici adds one listener per request, and removes it when the call settles. */
class DeadlineSignal implements UndiciSignal, CallTimer {
  reason: unknown = undefined;
  #listeners: Array<() => void> = [];
  readonly #timer: NodeJS.Timeout;

  constructor(ms: number) {
    this.#timer = setTimeout(() => this.#fire(), ms);
  }

  get signal(): EventEmitter {
    return this as unknown as EventEmitter;
  }

  on(_event: 'abort', listener: () => void): this {
    // Already fired (not possible while undici registers synchronously, but never lose a timeout).
    if (this.reason !== undefined) listener();
    else this.#listeners.push(listener);
    return this;
  }

  once(event: 'abort', listener: () => void): this {
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: () => void): this {
    const i = this.#listeners.indexOf(listener);
    if (i !== -1) this.#listeners.splice(i, 1);
    return this;
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#listeners.length = 0;
  }

  abort(reason: unknown): void {
    if (this.reason === undefined) this.#fire(reason);
  }

  #fire(reason: unknown = new DOMException('The operation timed out.', 'TimeoutError')): void {
    clearTimeout(this.#timer);
    this.reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }
}

/**
 * A timeout signal whose timer is cleared when the call settles. `AbortSignal.timeout` cannot be
 * cleared: after every call it kept a signal and a timer alive for the whole timeout (30 s for the
 * engine), tens of thousands of them under load.
 */
export function startCallTimer(limit: CallLimit): CallTimer {
  return new DeadlineSignal(limit.ms);
}
