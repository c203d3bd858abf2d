/**
 * The durable handoff outbox (docs/operations.md#handoffs-and-dead-letters): a handoff is written before the reply goes out and
 * delivered in the background, at least once, until it is delivered or dead-lettered. Two stores
 * behind this one interface: sqlite-outbox.ts (local, under DATA_DIR) and bullmq-outbox.ts
 * (shared, Redis); fallback-outbox.ts puts them together when a Redis is configured.
 */
import type { Handoff } from '../../schemas/handoff.schema.ts';
import type { DeliveryOutcome } from '../clients/handoff-client.ts';
import type { HandoffOutbox } from '../pipeline/ports.ts';

export type OutboxStoreName = 'local' | 'shared';

/** `delivering`: an attempt is under way; `dead`: dead-lettered (kept until retried). */
export type HandoffStatus = 'pending' | 'delivering' | 'delivered' | 'dead';

/** What the admin route lists: ids, times, counts and a bounded reason; never the message or contact. */
export interface OutboxEntry {
  readonly handoff_id: string;
  /** ISO 8601, when the handoff was written. */
  readonly created_at: string;
  /** Attempts made since it was written (or re-queued). */
  readonly attempts: number;
  /** `status_503`, `timeout`, `unreachable`, `expired: ...`; null before any failure. */
  readonly last_error: string | null;
  readonly status: HandoffStatus;
}

export interface OutboxCounts {
  readonly store: OutboxStoreName;
  readonly pending: number;
  readonly delivering: number;
  readonly dead: number;
  /** Age in seconds of the oldest handoff not yet delivered nor dead; null when there is none. */
  readonly oldestUndeliveredSeconds: number | null;
}

/** `not_dead`: the handoff exists but is still pending or being delivered (the route answers 409). */
export type RetryResult = 'queued' | 'not_found' | 'not_dead';

/** Delivers one handoff once; never throws. */
export type Deliver = (handoff: Handoff, traceHeaders: Readonly<Record<string, string>>) => Promise<DeliveryOutcome>;

/** Observers for metrics (src/telemetry/outbox-metrics.ts). */
export interface OutboxEvents {
  enqueued(store: OutboxStoreName): void;
  attempted(store: OutboxStoreName, outcome: DeliveryOutcome['result']): void;
  deadLettered(store: OutboxStoreName): void;
}

export const silentOutboxEvents: OutboxEvents = { enqueued() {}, attempted() {}, deadLettered() {} };

export interface Outbox extends HandoffOutbox {
  readonly name: OutboxStoreName | 'local+shared';
  /** Pending lists the handoffs waiting or being delivered; oldest first, at most `limit`. */
  list(status: 'pending' | 'dead', limit?: number): Promise<OutboxEntry[]>;
  /** Queues a dead letter again, with a fresh HANDOFF_MAX_AGE_S and attempts from zero. */
  retry(handoffId: string): Promise<RetryResult>;
  /** Depth by state and oldest age, per store (for metrics). */
  counts(): Promise<OutboxCounts[]>;
  /** Starts background delivery (what was left by an earlier run is delivered too). */
  start(): void;
  /**
   * Stops taking up handoffs and lets deliveries in flight finish, at most `graceMs`; resolves with
   * how many were still in flight. What was not delivered stays in the outbox.
   */
  stop(graceMs: number): Promise<number>;
  /** Whether a handoff written now would be kept (for `GET /ready`). */
  ready(): Promise<boolean>;
  /** Releases files and connections (after stop). */
  close(): Promise<void>;
}

/** Reasons stored and logged: bounded, never message text (an error's message may quote input). */
export function safeReason(err: unknown): string {
  const name = (err as { name?: unknown } | null)?.name;
  const code = (err as { code?: unknown } | null)?.code;
  return [typeof name === 'string' ? name : 'Error', typeof code === 'string' ? code : undefined].filter(Boolean).join(' ');
}
