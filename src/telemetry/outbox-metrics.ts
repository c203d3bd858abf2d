/**
 * The handoff outbox's metrics (docs/operations.md#handoffs-and-dead-letters), on the service's own registry (metrics.ts): depth by
 * state and the oldest undelivered handoff's age (read from the outbox at scrape time), delivery
 * attempts by outcome, and dead letters. With Redis, the shared store's figures are the whole
 * cluster's, the same from every instance: aggregate them with max(), not sum().
 */
import { Counter, Gauge, type Registry } from 'prom-client';

type StoreName = 'local' | 'shared';

/** What the outbox reports at scrape time (src/outbox/outbox.ts `OutboxCounts`). */
export interface OutboxDepth {
  readonly store: StoreName;
  readonly pending: number;
  readonly delivering: number;
  readonly dead: number;
  readonly oldestUndeliveredSeconds: number | null;
}

/** The events the outbox reports as they happen (src/outbox/outbox.ts `OutboxEvents`). */
export interface OutboxMetricEvents {
  enqueued(store: StoreName): void;
  attempted(store: StoreName, outcome: 'delivered' | 'retryable' | 'permanent'): void;
  deadLettered(store: StoreName): void;
}

export interface OutboxMetrics {
  readonly events: OutboxMetricEvents;
  /** Where depth and age are read at each scrape (set once the outbox exists). */
  watch(source: () => Promise<readonly OutboxDepth[]>): void;
}

/**
 * How long a scrape waits for the outbox's figures. The shared store's are Redis commands: while
 * Redis stalls they take their whole command timeout, and a scrape that waited for them would be
 * late enough for Prometheus to mark the instance down. Past this, the gauges keep the figures of
 * the last read that answered; the late read is let finish, and the next scrape reads again.
 */
export const OUTBOX_SCRAPE_BUDGET_MS = 200;

export function createOutboxMetrics(registry: Registry, stores: readonly StoreName[], budgetMs = OUTBOX_SCRAPE_BUDGET_MS): OutboxMetrics {
  const registers = [registry];
  let source: (() => Promise<readonly OutboxDepth[]>) | undefined;
  // Both gauges are collected in parallel (prom-client starts every collect at once): they share
  // one read of the outbox, in flight until it answers (across scrapes, when it outlasts one).
  let reading: Promise<readonly OutboxDepth[]> | undefined;
  const read = (): Promise<readonly OutboxDepth[]> => {
    if (source === undefined) return Promise.resolve([]);
    reading ??= source()
      .catch(() => [])
      .finally(() => {
        reading = undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<readonly OutboxDepth[]>((resolve) => {
      timer = setTimeout(() => resolve([]), budgetMs);
      timer.unref();
    });
    return Promise.race([reading, late]).finally(() => clearTimeout(timer));
  };

  const depth = new Gauge({
    name: 'chat_adapter_handoff_outbox_depth',
    help: 'Handoffs in the outbox by store (local SQLite, shared Redis) and state (pending, delivering, dead).',
    labelNames: ['store', 'state'] as const,
    registers,
    async collect() {
      for (const d of await read()) {
        for (const state of ['pending', 'delivering', 'dead'] as const) this.set({ store: d.store, state }, d[state]);
      }
    },
  });
  const oldest = new Gauge({
    name: 'chat_adapter_handoff_oldest_undelivered_age_seconds',
    help: 'Age of the oldest handoff neither delivered nor dead-lettered, by store; 0 when there is none.',
    labelNames: ['store'] as const,
    registers,
    async collect() {
      for (const d of await read()) this.set({ store: d.store }, d.oldestUndeliveredSeconds ?? 0);
    },
  });
  const enqueued = new Counter({
    name: 'chat_adapter_handoffs_enqueued_total',
    help: 'Handoffs written to the outbox, by store (local counts the fallbacks when Redis was unavailable).',
    labelNames: ['store'] as const,
    registers,
  });
  const attempts = new Counter({
    name: 'chat_adapter_handoff_delivery_attempts_total',
    help: 'Handoff delivery attempts by store and outcome (delivered, retryable failure, permanent failure).',
    labelNames: ['store', 'outcome'] as const,
    registers,
  });
  const deadLetters = new Counter({
    name: 'chat_adapter_handoff_dead_letters_total',
    help: 'Handoffs dead-lettered (a non-retryable answer, or HANDOFF_MAX_AGE_S passed), by store.',
    labelNames: ['store'] as const,
    registers,
  });
  // Zero-valued series from the start, so rates and alerts work before the first event.
  for (const store of stores) {
    enqueued.inc({ store }, 0);
    deadLetters.inc({ store }, 0);
    for (const outcome of ['delivered', 'retryable', 'permanent'] as const) attempts.inc({ store, outcome }, 0);
    for (const state of ['pending', 'delivering', 'dead'] as const) depth.set({ store, state }, 0);
    oldest.set({ store }, 0);
  }

  return {
    events: {
      enqueued: (store) => enqueued.inc({ store }),
      attempted: (store, outcome) => attempts.inc({ store, outcome }),
      deadLettered: (store) => deadLetters.inc({ store }),
    },
    watch(next) {
      source = next;
    },
  };
}
