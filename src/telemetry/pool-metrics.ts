/**
 * The parties' connection pools (docs/operations.md#metrics, docs/api.md#fair-shares): calls in
 * flight per pool, how long a call waited for a connection, and calls refused because none came
 * free within their share of the deadline (src/clients/party-slots.ts).
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DownstreamParty } from '../errors.ts';
import type { PartySlotEvents } from '../clients/party-slots.ts';

// Seconds: most calls find a connection at once; a wait is at most a share of a 25 s deadline.
const WAIT_BUCKETS = [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface PoolMetrics {
  readonly events: PartySlotEvents;
  /** A pool whose calls in flight are read at each scrape. */
  watch(party: DownstreamParty, inUse: () => number): void;
}

/** The metrics; the series of each watched party exist from the start, so rates and alerts work at once. */
export function createPoolMetrics(registry: Registry): PoolMetrics {
  const registers = [registry];
  const watched = new Map<DownstreamParty, () => number>();
  new Gauge({
    name: 'chat_adapter_party_pool_in_use',
    help: 'Calls in flight on a party\'s connection pool (at most its connection count).',
    labelNames: ['party'] as const,
    registers,
    collect() {
      for (const [party, count] of watched) this.set({ party }, count());
    },
  });
  const wait = new Histogram({
    name: 'chat_adapter_party_pool_wait_seconds',
    help: 'Time a call waited for a free connection of a party\'s pool (0 when one was free).',
    labelNames: ['party'] as const,
    buckets: WAIT_BUCKETS,
    registers,
  });
  const rejections = new Counter({
    name: 'chat_adapter_party_pool_rejections_total',
    help: 'Calls refused (503 with Retry-After) because no connection of the party\'s pool came free within their share of the deadline.',
    labelNames: ['party'] as const,
    registers,
  });
  // Bound once per party (a handful), not looked up by label on every call.
  const waits = new Map<DownstreamParty, ReturnType<typeof wait.labels>>();
  return {
    events: {
      waited(party, seconds) {
        waits.get(party)?.observe(seconds);
      },
      rejected(party) {
        rejections.inc({ party });
      },
    },
    watch(party, inUse) {
      watched.set(party, inUse);
      waits.set(party, wait.labels({ party }));
      rejections.inc({ party }, 0);
    },
  };
}
