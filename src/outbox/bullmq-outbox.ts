/**
 * The shared outbox: one BullMQ job per handoff in Redis (jobId = handoff_id), so any instance
 * may deliver it, one at a time. BullMQ brings what a hand-made queue would get wrong: retries on
 * our backoff (delivery-policy.ts), its failed set as the dead letter, and stalled-job recovery
 * (a job whose instance died is taken over after its lock lapses).
 * Redis needs `maxmemory-policy noeviction` and persistence (docs/operations.md#redis). A queued
 * handoff must survive a failover: with replicas wanted (REDIS_WAIT_REPLICAS), a replica
 * acknowledges the job before the chat answers (replica-ack.ts). The writing side is
 * bullmq-producer.ts, the background work (workers, dead-letter sweep) bullmq-upkeep.ts.
 */
import type { JobsOptions } from 'bullmq';
import type { Handoff } from '../../schemas/handoff.schema.ts';
import { captureTraceHeaders } from '../clients/handoff-client.ts';
import { OutboxUnavailableError } from '../errors.ts';
import type { Logger } from '../pipeline/ports.ts';
import type { RedisTarget } from '../config/redis-target.ts';
import { redisAnswers } from '../shared-state/redis-connection.ts';
import { noReplicaAcks, type ReplicaAcks } from '../shared-state/replica-ack.ts';
import { countJobs, listJobs, retryDeadJob } from './bullmq-jobs.ts';
import { openBullmqProducer } from './bullmq-producer.ts';
import { bullmqUpkeep } from './bullmq-upkeep.ts';
import { BULLMQ_ATTEMPTS, BULLMQ_PREFIX } from './bullmq-worker.ts';
import type { RetryPolicy } from './delivery-policy.ts';
import { deliveryReport } from './delivery-report.ts';
import { safeReason, silentOutboxEvents, type Deliver, type Outbox, type OutboxEvents } from './outbox.ts';

export interface BullmqOutboxOptions {
  /** The configured Redis (a string: one node's URL). */
  readonly redis: RedisTarget | string;
  readonly deliver: Deliver;
  /** WAIT for replicas after each job is written (default: none). */
  readonly replicaAcks?: ReplicaAcks;
  readonly policy: RetryPolicy;
  readonly logger: Logger;
  readonly events?: OutboxEvents;
  /** Deliveries at once per instance (default 8). */
  readonly concurrency?: number;
  /** How long a delivering instance holds a job (renewed while it lives); default 30 s. */
  readonly lockMs?: number;
  /** Default `handoffs` (under the key prefix `chat-adapter`); tests use their own. */
  readonly queueName?: string;
  /** A write that takes longer fails over to the local outbox (default 500 ms). */
  readonly commandTimeoutMs?: number;
  /** HANDOFF_DEAD_LETTER_TTL_S: a dead job (failed set) is deleted this long after it died (default 30 days). */
  readonly deadLetterTtlSeconds?: number;
  /** How often dead jobs past their TTL are looked for (default 1 h). */
  readonly deadLetterSweepMs?: number;
  readonly now?: () => number;
}

const BACKOFF_TYPE = 'handoff-full-jitter';
const DEFAULT_DEAD_LETTER_TTL_S = 30 * 86_400;

/** The job of one handoff: its id is the handoff's, retried on our backoff until HANDOFF_MAX_AGE_S. */
function jobOptions(handoffId: string, deadLetterTtlSeconds: number): JobsOptions {
  return {
    jobId: handoffId,
    attempts: BULLMQ_ATTEMPTS,
    backoff: { type: BACKOFF_TYPE },
    // A delivered job (it holds the visitor's contact details) is deleted at once; a dead one is
    // kept for HANDOFF_DEAD_LETTER_TTL_S (BullMQ applies the age when a later job fails; the sweep
    // of bullmq-upkeep.ts deletes a lone one too).
    removeOnComplete: true,
    removeOnFail: { age: deadLetterTtlSeconds },
    stackTraceLimit: 0,
  };
}

/** BullMQ reports every failed reconnect; one line a minute says enough. */
function rateLimitedErrorLog(logger: Logger, now: () => number): (what: string) => (err: Error) => void {
  let errorLoggedAt = 0;
  return (what) => (err) => {
    if (now() - errorLoggedAt < 60_000) return;
    errorLoggedAt = now();
    logger.warn({ store: 'shared', reason: safeReason(err) }, `shared handoff outbox: ${what} error`);
  };
}

export function createBullmqOutbox(options: BullmqOutboxOptions): Outbox {
  const { logger } = options;
  const now = options.now ?? Date.now;
  const queueName = options.queueName ?? 'handoffs';
  const report = deliveryReport('shared', logger, options.events ?? silentOutboxEvents);
  const deadLetterTtlSeconds = options.deadLetterTtlSeconds ?? DEFAULT_DEAD_LETTER_TTL_S;
  const logError = rateLimitedErrorLog(logger, now);
  const producer = openBullmqProducer({ redis: options.redis, queueName, commandTimeoutMs: options.commandTimeoutMs ?? 500, logger, logError });
  const acks = options.replicaAcks ?? noReplicaAcks;
  const upkeep = bullmqUpkeep({
    worker: {
      redis: options.redis,
      queueName,
      deliver: options.deliver,
      policy: options.policy,
      report,
      events: options.events ?? silentOutboxEvents,
      logger,
      logError,
      concurrency: options.concurrency ?? 8,
      lockMs: options.lockMs ?? 30_000,
      now,
    },
    producer,
    onCluster: typeof options.redis !== 'string' && options.redis.kind === 'cluster',
    deadLetterTtlSeconds,
    deadLetterSweepMs: options.deadLetterSweepMs ?? 3_600_000,
  });

  return {
    name: 'shared',
    async enqueue(handoff: Handoff) {
      try {
        const q = await producer.queue();
        const at = now();
        await q.add('handoff', { handoff, trace: captureTraceHeaders(), createdAt: at, queuedAt: at }, jobOptions(handoff.handoff_id, deadLetterTtlSeconds));
        // The job's own key leads the WAIT to the node (and connection) that took the write.
        await acks.confirm(producer.connection, `${BULLMQ_PREFIX}:${queueName}:${handoff.handoff_id}`, 'handoff');
      } catch (err) {
        throw err instanceof OutboxUnavailableError ? err : new OutboxUnavailableError(`shared outbox write failed (${safeReason(err)})`, { cause: err });
      }
      report.queued(handoff);
    },
    list: async (status, limit = 100) => listJobs(await producer.queue(), status, limit),
    retry: async (handoffId) => retryDeadJob(await producer.queue(), handoffId, now, logger),
    counts: async () => [await countJobs(await producer.queue(), now)],
    start: () => upkeep.start(),
    stop: (graceMs) => upkeep.stop(graceMs),
    async ready() {
      try {
        return producer.connection.status === 'ready' && (await redisAnswers(producer.connection));
      } catch {
        return false;
      }
    },
    async close() {
      await upkeep.close();
      await producer.close();
    },
  };
}
