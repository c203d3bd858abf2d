/**
 * Concurrency ceilings counted in this process (docs/api.md#fair-shares): without REDIS_URL, and
 * for a chat whose Redis call failed. Each counter holds its leases' expiry times; expired leases
 * are dropped when a counter is found full, so the work per chat is bounded by the ceiling.
 */
import { once, type Admission, type CeilingCount, type ConcurrencyCeilings } from './concurrency-ceilings.ts';

export class LocalConcurrency implements ConcurrencyCeilings {
  readonly #leaseMs: number;
  readonly #now: () => number;
  /** Counter (ceiling and id) -> lease number -> expiry (ms). A Map: ids are caller data. */
  readonly #counters = new Map<string, Map<number, number>>();
  #nextLease = 0;

  constructor(leaseMs: number, now: () => number = Date.now) {
    this.#leaseMs = leaseMs;
    this.#now = now;
  }

  acquire(counts: readonly CeilingCount[]): Admission {
    const now = this.#now();
    for (const count of counts) {
      const leases = this.#counters.get(keyOf(count));
      if (leases !== undefined && leases.size >= count.max && this.#prune(leases, now) >= count.max) {
        return { admitted: false, ceiling: count.ceiling };
      }
    }
    const lease = (this.#nextLease += 1);
    const held: string[] = [];
    for (const count of counts) {
      const key = keyOf(count);
      let leases = this.#counters.get(key);
      if (leases === undefined) {
        leases = new Map();
        this.#counters.set(key, leases);
      }
      leases.set(lease, now + this.#leaseMs);
      held.push(key);
    }
    return { admitted: true, release: once(() => this.#release(held, lease)) };
  }

  /** Chats in flight on a counter (for tests and the metrics). */
  inFlight(count: Pick<CeilingCount, 'ceiling' | 'id'>): number {
    return this.#counters.get(keyOf(count))?.size ?? 0;
  }

  #prune(leases: Map<number, number>, now: number): number {
    for (const [lease, expiresAt] of leases) if (expiresAt <= now) leases.delete(lease);
    return leases.size;
  }

  #release(keys: readonly string[], lease: number): void {
    for (const key of keys) {
      const leases = this.#counters.get(key);
      if (leases === undefined) continue;
      leases.delete(lease);
      // Counters of clients with nothing in flight are not kept: the map holds active clients only.
      if (leases.size === 0) this.#counters.delete(key);
    }
  }
}

const keyOf = (count: Pick<CeilingCount, 'ceiling' | 'id'>): string => `${count.ceiling}\n${count.id}`;
