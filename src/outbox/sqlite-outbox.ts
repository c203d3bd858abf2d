/**
 * The local outbox: handoffs in a SQLite file under DATA_DIR (sqlite-outbox-table.ts), delivered
 * by a polling loop in this process (sqlite-delivery-loop.ts). A SIGKILL between "written" and
 * "delivered" loses nothing: the next start-up on the same DATA_DIR delivers it.
 */
import type { Handoff } from '../../schemas/handoff.schema.ts';
import { captureTraceHeaders } from '../clients/handoff-client.ts';
import { OutboxUnavailableError } from '../errors.ts';
import type { Logger } from '../pipeline/ports.ts';
import type { RetryPolicy } from './delivery-policy.ts';
import { deliveryReport } from './delivery-report.ts';
import { safeReason, silentOutboxEvents, type Deliver, type Outbox, type OutboxEvents } from './outbox.ts';
import { startDeliveryLoop, type DeliveryLoop } from './sqlite-delivery-loop.ts';
import { openOutboxTable, type OutboxTable } from './sqlite-outbox-table.ts';

export const LOCAL_OUTBOX_FILE = 'handoff-outbox.sqlite';
/** HANDOFF_DEAD_LETTER_TTL_S default: 30 days, time for an operator to retry, not longer. */
export const DEFAULT_DEAD_LETTER_TTL_MS = 30 * 86_400_000;

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
  /** Dead letters are deleted this long after they died (default DEFAULT_DEAD_LETTER_TTL_MS). */
  readonly deadLetterTtlMs?: number;
  readonly now?: () => number;
}

/** The table, opened on first use and again after a failure (a full disk or a missing mount heals), until closed for good. */
interface ReopeningTable {
  get(): OutboxTable;
  isClosed(): boolean;
  close(): void;
}

function reopeningTable(file: string, logger: Logger): ReopeningTable {
  let table: OutboxTable | undefined;
  let openFailed = false;
  let closed = false;
  return {
    get() {
      if (closed) throw new OutboxUnavailableError('local outbox closed');
      if (table !== undefined) return table;
      try {
        table = openOutboxTable(file);
        if (openFailed) logger.info({ store: 'local' }, 'local handoff outbox usable again');
        openFailed = false;
        return table;
      } catch (err) {
        if (!openFailed) logger.error({ store: 'local', reason: safeReason(err) }, 'local handoff outbox cannot be opened');
        openFailed = true;
        throw new OutboxUnavailableError(`local outbox cannot be opened (${safeReason(err)})`, { cause: err });
      }
    },
    isClosed: () => closed,
    close() {
      closed = true;
      table?.close();
      table = undefined;
    },
  };
}

export function createSqliteOutbox(options: SqliteOutboxOptions): Outbox {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const events = options.events ?? silentOutboxEvents;
  const report = deliveryReport('local', logger, events);
  const table = reopeningTable(options.file, logger);
  const open = (): OutboxTable => table.get();
  let loop: DeliveryLoop | undefined;

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
      loop?.kick();
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
      loop?.kick();
      return 'queued';
    },
    async counts() {
      const found = open().counts();
      const oldest = found.oldestCreatedAt === null ? null : Math.max(0, (now() - found.oldestCreatedAt) / 1000);
      return [{ store: 'local', pending: found.pending, delivering: found.delivering, dead: found.dead, oldestUndeliveredSeconds: oldest }];
    },
    start() {
      if (loop !== undefined || table.isClosed()) return;
      loop = startDeliveryLoop({
        table: open,
        deliver: options.deliver,
        policy: options.policy,
        report,
        events,
        logger,
        pollIntervalMs: options.pollIntervalMs ?? 1_000,
        concurrency: options.concurrency ?? 8,
        claimMs: options.claimMs ?? 30_000,
        keepDeliveredMs: options.keepDeliveredMs ?? 3_600_000,
        deadLetterTtlMs: options.deadLetterTtlMs ?? DEFAULT_DEAD_LETTER_TTL_MS,
        now,
        closed: () => table.isClosed(),
      });
    },
    stop: async (graceMs) => (loop === undefined ? 0 : loop.stop(graceMs)),
    async ready() {
      try {
        open().probeWrite(now());
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await loop?.stop(0);
      table.close();
    },
  };
}
