/**
 * What both outbox stores say about a handoff's life: log lines with ids and bounded reasons only
 * (never the message or contact), and the metric events.
 */
import type { Handoff } from '../../schemas/handoff.schema.ts';
import type { Logger } from '../pipeline/ports.ts';
import type { OutboxEvents, OutboxStoreName } from './outbox.ts';

export interface DeliveryReport {
  queued(handoff: Handoff): void;
  delivered(handoff: Handoff, attempts: number): void;
  willRetry(handoff: Handoff, attempts: number, reason: string, delayMs: number): void;
  dead(handoff: Handoff, attempts: number, reason: string): void;
}

export function deliveryReport(store: OutboxStoreName, logger: Logger, events: OutboxEvents): DeliveryReport {
  const ids = (h: Handoff) => ({ handoff_id: h.handoff_id, trace_id: h.trace_id, conversation_id: h.conversation_id, store });
  return {
    queued(h) {
      events.enqueued(store);
      logger.info(ids(h), 'handoff queued');
    },
    delivered(h, attempts) {
      logger.info({ ...ids(h), attempts }, 'handoff delivered');
    },
    willRetry(h, attempts, reason, delayMs) {
      logger.warn({ ...ids(h), attempts, reason, retry_in_ms: delayMs }, 'handoff delivery failed, will retry');
    },
    dead(h, attempts, reason) {
      events.deadLettered(store);
      logger.error({ ...ids(h), attempts, reason }, 'handoff dead-lettered');
    },
  };
}
