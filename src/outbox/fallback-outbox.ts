/**
 * With a Redis configured (any topology): the shared (Redis) outbox first, and the local (SQLite) outbox when Redis cannot
 * take a handoff (docs/operations.md#handoffs-and-dead-letters), so an escalation is kept whenever either can be written. Both
 * deliver in the background: Redis's jobs by any instance, the local ones by this instance.
 */
import type { Handoff } from '../../schemas/handoff.schema.ts';
import type { Logger } from '../pipeline/ports.ts';
import { safeReason, type Outbox } from './outbox.ts';

export function createFallbackOutbox(shared: Outbox, local: Outbox, logger: Logger): Outbox {
  return {
    name: 'local+shared',
    async enqueue(handoff: Handoff) {
      try {
        await shared.enqueue(handoff);
      } catch (err) {
        // A write that timed out may still land in Redis: then both deliver it, with the same
        // Idempotency-Key, and the receiver records it once (at least once, never lost).
        logger.warn({ handoff_id: handoff.handoff_id, trace_id: handoff.trace_id, reason: safeReason(err) }, 'shared handoff outbox unavailable; writing to the local outbox');
        await local.enqueue(handoff);
      }
    },
    async list(status, limit = 100) {
      const [fromShared, fromLocal] = await Promise.all([shared.list(status, limit), local.list(status, limit)]);
      return [...fromShared, ...fromLocal].sort((a, b) => a.created_at.localeCompare(b.created_at)).slice(0, limit);
    },
    async retry(handoffId) {
      let inShared: Awaited<ReturnType<Outbox['retry']>>;
      try {
        inShared = await shared.retry(handoffId);
      } catch (err) {
        // Redis is down: a local dead letter can still be re-queued; anything else must wait.
        const inLocal = await local.retry(handoffId);
        if (inLocal === 'not_found') throw err;
        return inLocal;
      }
      return inShared === 'not_found' ? local.retry(handoffId) : inShared;
    },
    async counts() {
      const [a, b] = await Promise.allSettled([shared.counts(), local.counts()]);
      return [...(a.status === 'fulfilled' ? a.value : []), ...(b.status === 'fulfilled' ? b.value : [])];
    },
    start() {
      shared.start();
      local.start();
    },
    async stop(graceMs) {
      const [a, b] = await Promise.all([shared.stop(graceMs), local.stop(graceMs)]);
      return a + b;
    },
    async ready() {
      const [a, b] = await Promise.all([shared.ready(), local.ready()]);
      return a || b;
    },
    async close() {
      await Promise.all([shared.close(), local.close()]);
    },
  };
}
