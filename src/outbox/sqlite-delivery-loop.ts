/**
 * The local outbox's delivering side: a polling loop in this process (a timer that never keeps the
 * process alive) claims due rows for one attempt each, at most `concurrency` at once, and records
 * each outcome following delivery-policy.ts. A claim left by a killed process lapses after
 * `claimMs`, and the row is taken up again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { OutboxUnavailableError } from '../errors.ts';
import type { Logger } from '../pipeline/ports.ts';
import { afterAttempt, expiredReason, isExpired, type RetryPolicy } from './delivery-policy.ts';
import type { DeliveryReport } from './delivery-report.ts';
import { safeReason, type Deliver, type OutboxEvents } from './outbox.ts';
import type { ClaimedRow, OutboxTable } from './sqlite-outbox-table.ts';

export interface DeliveryLoopOptions {
  /** The table, opened (again) on demand; throws OutboxUnavailableError when it cannot be. */
  readonly table: () => OutboxTable;
  readonly deliver: Deliver;
  readonly policy: RetryPolicy;
  readonly report: DeliveryReport;
  readonly events: OutboxEvents;
  readonly logger: Logger;
  readonly pollIntervalMs: number;
  readonly concurrency: number;
  readonly claimMs: number;
  readonly keepDeliveredMs: number;
  /** Dead letters are deleted this long after they died (HANDOFF_DEAD_LETTER_TTL_S). */
  readonly deadLetterTtlMs: number;
  readonly now: () => number;
  /** True once the store is closed: an attempt that ends later leaves its row to its lapsing claim. */
  readonly closed: () => boolean;
}

export interface DeliveryLoop {
  /** Looks for due rows at once (after a write, a re-queue, or a finished attempt). */
  kick(): void;
  /** Takes no more rows; waits for attempts in flight at most `graceMs`; resolves with how many were left. */
  stop(graceMs: number): Promise<number>;
}

/** One delivery attempt of a claimed row, and the row updated as the policy decides (delivered, later, dead). */
async function attemptDelivery(options: DeliveryLoopOptions, table: OutboxTable, row: ClaimedRow): Promise<void> {
  const { deliver, policy, report, now } = options;
  const { handoff } = row;
  if (isExpired(row.queuedAt, now(), policy)) {
    table.dead(row, row.attempts, expiredReason(row.lastError), now());
    report.dead(handoff, row.attempts, expiredReason(row.lastError));
    return;
  }
  const outcome = await deliver(handoff, row.traceHeaders);
  options.events.attempted('local', outcome.result);
  const attempts = row.attempts + 1;
  if (options.closed()) return;
  const next = afterAttempt(outcome, attempts, row.queuedAt, now(), policy);
  if (next.kind === 'done') {
    table.delivered(row, attempts, now());
    // Handoffs are few: one checkpoint each (a few ms) leaves no contact detail in the log file.
    table.checkpoint();
    report.delivered(handoff, attempts);
  } else if (next.kind === 'retry') {
    table.retryLater(row, attempts, now() + next.delayMs, next.reason);
    report.willRetry(handoff, attempts, next.reason, next.delayMs);
  } else {
    table.dead(row, attempts, next.reason, now());
    report.dead(handoff, attempts, next.reason);
  }
}

/** Forgets delivered rows past keepDeliveredMs and deletes dead letters past their TTL. */
function purgeOld(options: DeliveryLoopOptions, table: OutboxTable, at: number): void {
  table.purgeDelivered(at - options.keepDeliveredMs);
  const expired = table.purgeDead(at - options.deadLetterTtlMs);
  if (expired > 0) {
    table.checkpoint();
    options.logger.info({ store: 'local', dead_letters: expired }, 'expired dead-lettered handoffs deleted');
  }
}

export function startDeliveryLoop(options: DeliveryLoopOptions): DeliveryLoop {
  const { now, logger } = options;
  const inFlight = new Set<Promise<void>>();
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let lastPurge = 0;

  function schedule(ms: number): void {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  }

  function tick(): void {
    try {
      const free = options.concurrency - inFlight.size;
      if (running && free > 0) {
        const table = options.table();
        const at = now();
        for (const row of table.claim(at, at + options.claimMs, free)) track(attemptDelivery(options, table, row));
        if (at - lastPurge > 60_000) {
          lastPurge = at;
          purgeOld(options, table, at);
        }
      }
    } catch (err) {
      if (!(err instanceof OutboxUnavailableError)) logger.warn({ store: 'local', reason: safeReason(err) }, 'local handoff outbox poll failed');
    }
    schedule(options.pollIntervalMs);
  }

  function track(delivery: Promise<void>): void {
    inFlight.add(delivery);
    void delivery
      .catch((err: unknown) => logger.warn({ store: 'local', reason: safeReason(err) }, 'local handoff outbox update failed'))
      .finally(() => {
        inFlight.delete(delivery);
        schedule(0);
      });
  }

  schedule(0);
  return {
    kick: () => schedule(0),
    async stop(graceMs) {
      running = false;
      clearTimeout(timer);
      if (inFlight.size > 0) await Promise.race([Promise.allSettled([...inFlight]), sleep(graceMs, undefined, { ref: false })]);
      return inFlight.size;
    },
  };
}
