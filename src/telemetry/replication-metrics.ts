/**
 * Writes a replica did not acknowledge in time (docs/operations.md#what-a-failover-costs): counted
 * by kind, and logged at warn at most once a minute (replica-ack.ts rate-limits the calls).
 */
import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../pipeline/ports.ts';
import type { ReplicaAckEvents, ReplicatedWriteKind } from '../shared-state/replica-ack.ts';

const KINDS: readonly ReplicatedWriteKind[] = ['idempotency', 'handoff', 'turn'];

export function createReplicationEvents(registry: Registry, logger: Logger): ReplicaAckEvents {
  const unreplicated = new Counter({
    name: 'chat_adapter_redis_unreplicated_writes_total',
    help: 'Durable writes (kept idempotency answers, queued handoffs, turns) that fewer than REDIS_WAIT_REPLICAS replicas acknowledged within REDIS_WAIT_TIMEOUT_MS: a failover of their primary now could lose them.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  // Zero-valued series exist from the start, so rates and alerts work before the first event.
  for (const kind of KINDS) unreplicated.inc({ kind }, 0);
  return {
    unreplicated: (kind) => unreplicated.inc({ kind }),
    warn: (kind, count, reason) =>
      logger.warn({ kind, unreplicated_writes: count, reason }, 'redis: writes not acknowledged by a replica in time; a failover of their primary now could lose them'),
  };
}
