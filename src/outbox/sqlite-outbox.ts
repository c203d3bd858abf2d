/**
 * The local outbox: handoffs in a SQLite file under DATA_DIR, delivered by a polling loop in this
 * process (a timer that never keeps the process alive). A handoff is claimed for one attempt at a
 * time; a claim left by a killed process lapses after `claimMs` and the row is taken up again, so
 * a SIGKILL between "written" and "delivered" loses nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Handoff } from '../../schemas/handoff.schema.ts';
import { captureTraceHeaders } from '../clients/handoff-client.ts';
import { OutboxUnavailableError } from '../errors.ts';
import type { Logger } from '../pipeline/ports.ts';
import { afterAttempt, expiredReason, isExpired, type RetryPolicy } from './delivery-policy.ts';
import { deliveryReport } from './delivery-report.ts';
import { safeReason, silentOutboxEvents, type Deliver, type Outbox, type OutboxEvents } from './outbox.ts';
import { openOutboxTable, type ClaimedRow, type OutboxTable } from './sqlite-outbox-table.ts';

export const LOCAL_OUTBOX_FILE = 'handoff-outbox.sqlite';

export interface SqliteOutboxOptions {
  readonly file: string;
  readonly deliver: Deliver;
  readonly policy: RetryPolicy;
  readonly logger: Logger;
  readonly events?: OutboxEvents;
  /** How often due handoffs are looked for (default 1000 ms); a new one is taken up at once. */
  readonly pollIntervalMs?: number;
  /** Deliveries at once (default 8). */
  readonly concurrency?: number;
  /** How long an attempt holds its handoff; must exceed the delivery timeout (default 30 s). */
  readonly claimMs?: number;
  /** Delivered handoffs (payload already cleared) are forgotten after this (default 1 h). */
  readonly keepDeliveredMs?: number;
  readonly now?: () => number;
}

export function createSqliteOutbox(options: SqliteOutboxOptions): Outbox {
  const { deliver, policy, logger } = options;
  const now = options.now ?? Date.now;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const concurrency = options.concurrency ?? 8;
  const claimMs = options.claimMs ?? 30_000;
  const keepDeliveredMs = options.keepDeliveredMs ?? 3_600_000;
  const report = deliveryReport('local', logger, options.events ?? silentOutboxEvents);
  const inFlight = new Set<Promise<void>>();
  let table: OutboxTable | undefined;
  let openFailed = false;
  let running = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let lastPurge = 0;

  /** Opens the file on first use, and again after a failure (a full disk or a missing mount heals). */
  function open(): OutboxTable {
    if (closed) throw new OutboxUnavailableError('local outbox closed');
    if (table !== undefined) return table;
    try {
      table = openOutboxTable(options.file);
      if (openFailed) logger.info({ store: 'local' }, 'local handoff outbox usable again');
      openFailed = false;
      return table;
    } catch (err) {
      if (!openFailed) logger.error({ store: 'local', reason: safeReason(err) }, 'local handoff outbox cannot be opened');
      openFailed = true;
      throw new OutboxUnavailableError(`local outbox cannot be opened (${safeReason(err)})`, { cause: err });
    }
  }

  function schedule(ms: number): void {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(tick, ms);
    timer.unref();
  }

  function tick(): void {
    try {
      const free = concurrency - inFlight.size;
      if (running && free > 0) {
        const t = open();
        const at = now();
        for (const row of t.claim(at, at + claimMs, free)) track(attempt(t, row));
        if (at - lastPurge > 60_000) {
          lastPurge = at;
          t.purgeDelivered(at - keepDeliveredMs);
        }
      }
    } catch (err) {
      if (!(err instanceof OutboxUnavailableError)) logger.warn({ store: 'local', reason: safeReason(err) }, 'local handoff outbox poll failed');
    }
    schedule(pollIntervalMs);
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

  async function attempt(t: OutboxTable, row: ClaimedRow): Promise<void> {
    const { handoff } = row;
    if (isExpired(row.queuedAt, now(), policy)) {
      t.dead(row, row.attempts, expiredReason(row.lastError), now());
      report.dead(handoff, row.attempts, expiredReason(row.lastError));
      return;
    }
    const outcome = await deliver(handoff, row.traceHeaders);
    options.events?.attempted('local', outcome.result);
    const attempts = row.attempts + 1;
    // Closed after the shutdown grace: the row keeps its claim and is delivered after the restart.
    if (closed) return;
    const next = afterAttempt(outcome, attempts, row.queuedAt, now(), policy);
    if (next.kind === 'done') {
      t.delivered(row, attempts, now());
      report.delivered(handoff, attempts);
    } else if (next.kind === 'retry') {
      t.retryLater(row, attempts, now() + next.delayMs, next.reason);
      report.willRetry(handoff, attempts, next.reason, next.delayMs);
    } else {
      t.dead(row, attempts, next.reason, now());
      report.dead(handoff, attempts, next.reason);
    }
  }

  return {
    name: 'local',
    async enqueue(handoff: Handoff) {
      const t = open();
      try {
        t.insert(handoff, captureTraceHeaders(), now());
      } catch (err) {
        throw new OutboxUnavailableError(`local outbox write failed (${safeReason(err)})`, { cause: err });
      }
      report.queued(handoff);
      schedule(0);
    },
    async list(status, limit = 100) {
      return open().list(status === 'dead' ? ['dead'] : ['pending', 'delivering'], limit);
    },
    async retry(handoffId) {
      const t = open();
      const status = t.statusOf(handoffId);
      if (status === undefined) return 'not_found';
      if (status !== 'dead' || !t.requeue(handoffId, now())) return 'not_dead';
      logger.info({ handoff_id: handoffId, store: 'local' }, 'handoff re-queued');
      schedule(0);
      return 'queued';
    },
    async counts() {
      const found = open().counts();
      const oldest = found.oldestCreatedAt === null ? null : Math.max(0, (now() - found.oldestCreatedAt) / 1000);
      return [{ store: 'local', pending: found.pending, delivering: found.delivering, dead: found.dead, oldestUndeliveredSeconds: oldest }];
    },
    start() {
      if (running || closed) return;
      running = true;
      schedule(0);
    },
    async stop(graceMs) {
      running = false;
      clearTimeout(timer);
      if (inFlight.size > 0) await Promise.race([Promise.allSettled([...inFlight]), sleep(graceMs, undefined, { ref: false })]);
      return inFlight.size;
    },
    async ready() {
      try {
        open().probeWrite(now());
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      running = false;
      clearTimeout(timer);
      closed = true;
      table?.close();
      table = undefined;
    },
  };
}
