/**
 * A bounded wait for a party's connection pool (docs/api.md#fair-shares). undici's Pool queues a
 * request that finds every connection busy without bound (its internal queue; only the request's
 * own abort signal takes it out), so a chat could wait for a connection until its deadline while
 * abandoned chats hold every one. In front of the pool, at most `capacity` calls (its connection
 * count) are in flight; a call that finds them all taken waits in line (first come, first served)
 * for at most `waitShare` of the time it has (the smaller of the party's timeout and what is left
 * before the chat's deadline), then is refused at once with PartyPoolBusyError: 503 with
 * `Retry-After`, never queued to its deadline.
 */
import { performance } from 'node:perf_hooks';
import { PartyPoolBusyError, type DownstreamParty } from '../errors.ts';

export { PartyPoolBusyError };

/** Where the slots report (src/telemetry/pool-metrics.ts); each optional. */
export interface PartySlotEvents {
  /** A call got its connection after waiting `seconds` (0 when one was free). */
  waited?(party: DownstreamParty, seconds: number): void;
  /** A call was refused: no connection within its share. */
  rejected?(party: DownstreamParty): void;
}

export interface PartySlotsOptions {
  readonly party: DownstreamParty;
  /** The pool's connection count. */
  readonly capacity: number;
  /** PARTY_POOL_WAIT_SHARE: the part (0..1] of a call's time it may wait for a connection. */
  readonly waitShare: number;
  readonly events?: PartySlotEvents;
}

/** Gives the slot back; calling it twice gives back one slot only. */
export type ReleaseSlot = () => void;

interface Waiter {
  readonly since: number;
  grant: ((release: ReleaseSlot) => void) | undefined;
  timer: NodeJS.Timeout | undefined;
}

export class PartySlots {
  readonly #options: PartySlotsOptions;
  #inUse = 0;
  /** Waiters in arrival order; `head` is the first one still in the list (no O(n) shift). */
  #line: Array<Waiter | undefined> = [];
  #head = 0;

  constructor(options: PartySlotsOptions) {
    this.#options = options;
  }

  get inUse(): number {
    return this.#inUse;
  }

  /**
   * A slot for one call whose time is the smaller of `timeoutMs` and what is left before
   * `deadlineAt` (the `performance.now()` clock). Resolves with its release, or rejects with
   * PartyPoolBusyError once the call's share of that time passed without a free connection.
   */
  acquire(timeoutMs: number, deadlineAt: number | undefined): Promise<ReleaseSlot> {
    if (this.#inUse < this.#options.capacity && this.#head === this.#line.length) {
      this.#take();
      this.#options.events?.waited?.(this.#options.party, 0);
      return Promise.resolve(this.#releaser());
    }
    const left = deadlineAt === undefined ? timeoutMs : Math.min(timeoutMs, deadlineAt - performance.now());
    const waitMs = Math.max(0, Math.floor(left * this.#options.waitShare));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { since: performance.now(), grant: resolve, timer: undefined };
      waiter.timer = setTimeout(() => {
        waiter.grant = undefined;
        this.#options.events?.rejected?.(this.#options.party);
        reject(new PartyPoolBusyError(this.#options.party));
        this.#compact();
      }, waitMs);
      this.#line.push(waiter);
    });
  }

  #take(): void {
    this.#inUse += 1;
  }

  #releaser(): ReleaseSlot {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inUse -= 1;
      this.#next();
    };
  }

  /** Hands free slots to the first waiters still waiting. */
  #next(): void {
    while (this.#inUse < this.#options.capacity && this.#head < this.#line.length) {
      const waiter = this.#line[this.#head];
      this.#line[this.#head] = undefined;
      this.#head += 1;
      if (waiter?.grant === undefined) continue;
      clearTimeout(waiter.timer);
      const grant = waiter.grant;
      waiter.grant = undefined;
      this.#take();
      this.#options.events?.waited?.(this.#options.party, (performance.now() - waiter.since) / 1000);
      grant(this.#releaser());
    }
    this.#compact();
  }

  /** Drops the taken or given-up front of the line, so it never grows past the waiters it holds. */
  #compact(): void {
    while (this.#head < this.#line.length && this.#line[this.#head]?.grant === undefined) this.#head += 1;
    if (this.#head === this.#line.length) {
      this.#line = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#line.length) {
      this.#line = this.#line.slice(this.#head);
      this.#head = 0;
    }
  }
}
