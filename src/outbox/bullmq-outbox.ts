/**
 * The shared outbox: one BullMQ job per handoff in Redis (jobId = handoff_id), so any instance
 * may deliver it, one at a time. BullMQ brings what a hand-made queue would get wrong: retries on
 * our backoff (delivery-policy.ts), its failed set as the dead letter, and stalled-job recovery
 * (a job whose instance died is taken over after its lock lapses).
 * Redis needs `maxmemory-policy noeviction` and persistence (docs/operations.md#redis). A queued
 * handoff must survive a failover: with replicas wanted (REDIS_WAIT_REPLICAS), a replica
 * acknowledges the job before the chat answers (replica-ack.ts).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue, type JobsOptions } from 'bullmq';
import type { Handoff } from '../../schemas/handoff.schema.ts';
import { captureTraceHeaders } from '../clients/handoff-client.ts';
import { OutboxUnavailableError } from '../errors.ts';
import type { Logger } from '../pipeline/ports.ts';
import type { RedisTarget } from '../config/redis-target.ts';
import { connectRedis, redisAnswers } from '../shared-state/redis-connection.ts';
import { noReplicaAcks, type ReplicaAcks } from '../shared-state/replica-ack.ts';
import { legacyJobsPending, LEGACY_BULLMQ_PREFIX } from './bullmq-legacy-prefix.ts';
import { listJobs, oldestCreatedAt, type HandoffJobData } from './bullmq-jobs.ts';
import { BULLMQ_ATTEMPTS, BULLMQ_PREFIX, CLOSE_WAIT_MS, startHandoffWorker, type HandoffWorker } from './bullmq-worker.ts';
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

export function createBullmqOutbox(options: BullmqOutboxOptions): Outbox {
  const { deliver, policy, logger } = options;
  const now = options.now ?? Date.now;
  const queueName = options.queueName ?? 'handoffs';
  const lockMs = options.lockMs ?? 30_000;
  const report = deliveryReport('shared', logger, options.events ?? silentOutboxEvents);
  const deadLetterTtlSeconds = options.deadLetterTtlSeconds ?? DEFAULT_DEAD_LETTER_TTL_S;
  let errorLoggedAt = 0;
  const logError = (what: string) => (err: Error) => {
    // BullMQ reports every failed reconnect; one line a minute says enough.
    if (now() - errorLoggedAt < 60_000) return;
    errorLoggedAt = now();
    logger.warn({ store: 'shared', reason: safeReason(err) }, `shared handoff outbox: ${what} error`);
  };

  // The producer fails fast (no offline queue, short command timeout): a chat never waits on Redis.
  const producer = connectRedis(options.redis, {
    commandTimeoutMs: options.commandTimeoutMs ?? 500,
    onOutage: (err) => logger.warn({ store: 'shared', reason: safeReason(err) }, 'shared handoff outbox: Redis unreachable; handoffs go to the local outbox'),
  });
  const jobOptions = (handoffId: string): JobsOptions => ({
    jobId: handoffId,
    attempts: BULLMQ_ATTEMPTS,
    backoff: { type: BACKOFF_TYPE },
    // A delivered job (it holds the visitor's contact details) is deleted at once; a dead one is
    // kept for HANDOFF_DEAD_LETTER_TTL_S (BullMQ applies the age when a later job fails; the sweep
    // below deletes a lone one too).
    removeOnComplete: true,
    removeOnFail: { age: deadLetterTtlSeconds },
    stackTraceLimit: 0,
  });
  let queue: Promise<Queue<HandoffJobData>> | undefined;
  const getQueue = (): Promise<Queue<HandoffJobData>> =>
    (queue ??= (async () => {
      const q = new Queue<HandoffJobData>(queueName, { connection: producer, prefix: BULLMQ_PREFIX });
      q.on('error', logError('queue'));
      try {
        await q.waitUntilReady();
        return q;
      } catch (err) {
        queue = undefined;
        await q.close().catch(() => undefined);
        throw err;
      }
    })());
  const whenConnected = async (): Promise<Queue<HandoffJobData>> => {
    if (producer.status !== 'ready') throw new OutboxUnavailableError(`shared outbox: Redis ${producer.status}`);
    return getQueue();
  };

  const acks = options.replicaAcks ?? noReplicaAcks;
  const onCluster = typeof options.redis !== 'string' && options.redis.kind === 'cluster';
  let worker: HandoffWorker | undefined;
  let legacyWorker: HandoffWorker | undefined;
  const startWorker = (prefix?: string): HandoffWorker =>
    startHandoffWorker({
      redis: options.redis,
      queueName,
      ...(prefix === undefined ? {} : { prefix }),
      deliver,
      policy,
      report,
      events: options.events ?? silentOutboxEvents,
      logger,
      logError,
      concurrency: options.concurrency ?? 8,
      lockMs,
      now,
    });
  /** Jobs an older version queued under the old prefix get a worker of their own (bullmq-legacy-prefix.ts). */
  const drainLegacyPrefix = async (): Promise<void> => {
    if (onCluster || legacyWorker !== undefined || producer.status !== 'ready') return;
    if (!(await legacyJobsPending(producer, queueName))) return;
    logger.warn({ store: 'shared', prefix: LEGACY_BULLMQ_PREFIX }, 'handoffs queued under the old key prefix found: delivering them');
    legacyWorker = startWorker(LEGACY_BULLMQ_PREFIX);
  };
  let sweeper: NodeJS.Timeout | undefined;
  const sweepDeadLetters = async (): Promise<void> => {
    await drainLegacyPrefix().catch(() => undefined);
    try {
      const removed = await (await whenConnected()).clean(deadLetterTtlSeconds * 1000, 1_000, 'failed');
      if (removed.length > 0) logger.info({ store: 'shared', dead_letters: removed.length }, 'expired dead-lettered handoffs deleted');
    } catch {
      // Redis unreachable: the next sweep tries again.
    }
  };

  return {
    name: 'shared',
    async enqueue(handoff: Handoff) {
      try {
        const q = await whenConnected();
        const at = now();
        await q.add('handoff', { handoff, trace: captureTraceHeaders(), createdAt: at, queuedAt: at }, jobOptions(handoff.handoff_id));
        // The job's own key leads the WAIT to the node (and connection) that took the write.
        await acks.confirm(producer, `${BULLMQ_PREFIX}:${queueName}:${handoff.handoff_id}`, 'handoff');
      } catch (err) {
        throw err instanceof OutboxUnavailableError ? err : new OutboxUnavailableError(`shared outbox write failed (${safeReason(err)})`, { cause: err });
      }
      report.queued(handoff);
    },
    list: async (status, limit = 100) => listJobs(await whenConnected(), status, limit),
    async retry(handoffId) {
      const job = await (await whenConnected()).getJob(handoffId);
      if (job === undefined) return 'not_found';
      if ((await job.getState()) !== 'failed') return 'not_dead';
      await job.updateData({ ...job.data, queuedAt: now() });
      try {
        await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      } catch {
        // Someone else re-queued it first.
        return 'not_dead';
      }
      logger.info({ handoff_id: handoffId, store: 'shared' }, 'handoff re-queued');
      return 'queued';
    },
    async counts() {
      const q = await whenConnected();
      const c = await q.getJobCounts('active', 'waiting', 'delayed', 'prioritized', 'failed');
      const oldest = await oldestCreatedAt(q);
      return [{
        store: 'shared',
        pending: (c['waiting'] ?? 0) + (c['delayed'] ?? 0) + (c['prioritized'] ?? 0),
        delivering: c['active'] ?? 0,
        dead: c['failed'] ?? 0,
        oldestUndeliveredSeconds: oldest === null ? null : Math.max(0, (now() - oldest) / 1000),
      }];
    },
    start() {
      if (sweeper === undefined) {
        sweeper = setInterval(() => void sweepDeadLetters(), options.deadLetterSweepMs ?? 3_600_000);
        sweeper.unref();
        void sweepDeadLetters();
        // Each time Redis is reached again, too: the start may have come before it answered.
        producer.on('ready', () => void drainLegacyPrefix().catch(() => undefined));
      }
      worker ??= startWorker();
    },
    async stop(graceMs) {
      const [left = 0, legacyLeft = 0] = await Promise.all([worker?.stop(graceMs), legacyWorker?.stop(graceMs)]);
      return left + legacyLeft;
    },
    async ready() {
      try {
        return producer.status === 'ready' && (await redisAnswers(producer));
      } catch {
        return false;
      }
    },
    async close() {
      clearInterval(sweeper);
      await Promise.all([worker?.close(), legacyWorker?.close()]);
      const q = queue;
      queue = undefined;
      if (q !== undefined) {
        const closed = q.then((opened) => opened.close()).catch(() => undefined);
        await Promise.race([closed, sleep(CLOSE_WAIT_MS, undefined, { ref: false })]);
      }
      producer.disconnect();
    },
  };
}
