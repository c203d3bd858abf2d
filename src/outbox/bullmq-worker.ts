/**
 * The shared outbox's delivering side: a BullMQ worker that attempts each job once per run of the
 * processor, following delivery-policy.ts. A retryable failure throws (BullMQ waits our backoff
 * and runs it again); a permanent one or an expired handoff throws UnrecoverableError, which moves
 * the job to the failed set: the dead letter.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** How long closing waits for BullMQ before cutting the connection. */
export const CLOSE_WAIT_MS = 2_000;
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { backoffDelayMs } from '../clients/backoff.ts';
import type { Logger } from '../pipeline/ports.ts';
import type { RedisTarget } from '../config/redis-target.ts';
import { connectRedis, type RedisClient } from '../shared-state/redis-connection.ts';
import type { HandoffJobData } from './bullmq-jobs.ts';
import { afterAttempt, expiredReason, isExpired, type RetryPolicy } from './delivery-policy.ts';
import type { DeliveryReport } from './delivery-report.ts';
import type { Deliver, OutboxEvents } from './outbox.ts';

/**
 * The queue's key prefix. The braces are a hash tag: every key of the queue hashes to one slot, so
 * BullMQ's multi-key scripts run on a Redis Cluster (as BullMQ's guide for Cluster says). Before
 * the tag it was `chat-adapter`: bullmq-legacy-prefix.ts moves what is still queued there.
 */
export const BULLMQ_PREFIX = '{chat-adapter}';
/** Unbounded in practice: HANDOFF_MAX_AGE_S, checked by the processor, is what ends the retries. */
export const BULLMQ_ATTEMPTS = 1_000_000;

export interface HandoffWorkerOptions {
  /** The configured Redis (a string: one node's URL). */
  readonly redis: RedisTarget | string;
  readonly queueName: string;
  /** Default BULLMQ_PREFIX; another only to drain a queue left under an older prefix. */
  readonly prefix?: string;
  readonly deliver: Deliver;
  readonly policy: RetryPolicy;
  readonly report: DeliveryReport;
  readonly events: OutboxEvents;
  readonly logger: Logger;
  readonly logError: (what: string) => (err: Error) => void;
  readonly concurrency: number;
  /** How long a delivering instance holds a job (renewed while it lives); also the stalled check's period. */
  readonly lockMs: number;
  readonly now: () => number;
}

export interface HandoffWorker {
  /** Stops taking jobs; waits for those in flight at most `graceMs`; resolves with how many were left. */
  stop(graceMs: number): Promise<number>;
  close(): Promise<void>;
}

/** A retryable failure, carrying the wait the policy chose (logged, and used as BullMQ's backoff). */
class RetryLater extends Error {
  readonly delayMs: number;
  constructor(reason: string, delayMs: number) {
    super(reason);
    this.name = 'RetryLater';
    this.delayMs = delayMs;
  }
}

/** Deliveries under way (read by `stop`: how many were left in flight). */
interface InFlight {
  count: number;
}

/** One run of a job: one delivery attempt, then done, retried later (RetryLater) or dead (UnrecoverableError). */
function handoffProcessor(options: HandoffWorkerOptions, inFlight: InFlight): (job: Job<HandoffJobData>) => Promise<void> {
  const { deliver, policy, report, now } = options;
  return async (job) => {
    const { handoff, trace, queuedAt } = job.data;
    if (isExpired(queuedAt, now(), policy)) {
      const reason = expiredReason(job.failedReason || null);
      report.dead(handoff, job.attemptsMade, reason);
      throw new UnrecoverableError(reason);
    }
    inFlight.count++;
    const outcome = await deliver(handoff, trace).finally(() => inFlight.count--);
    options.events.attempted('shared', outcome.result);
    const attempts = job.attemptsMade + 1;
    const next = afterAttempt(outcome, attempts, queuedAt, now(), policy);
    if (next.kind === 'done') return report.delivered(handoff, attempts);
    if (next.kind === 'retry') {
      report.willRetry(handoff, attempts, next.reason, next.delayMs);
      throw new RetryLater(next.reason, next.delayMs);
    }
    report.dead(handoff, attempts, next.reason);
    throw new UnrecoverableError(next.reason);
  };
}

/** A running BullMQ worker on `connection`, retrying on our backoff. */
function runWorker(options: HandoffWorkerOptions, connection: RedisClient, processJob: (job: Job<HandoffJobData>) => Promise<void>): Worker<HandoffJobData> {
  const w = new Worker<HandoffJobData>(options.queueName, processJob, {
    connection,
    prefix: options.prefix ?? BULLMQ_PREFIX,
    autorun: false,
    concurrency: options.concurrency,
    lockDuration: options.lockMs,
    stalledInterval: options.lockMs,
    // A job whose instance died is run again, however often that happens (at least once).
    maxStalledCount: BULLMQ_ATTEMPTS,
    settings: {
      backoffStrategy: (attemptsMade, _type, err) => (err instanceof RetryLater ? err.delayMs : backoffDelayMs(attemptsMade, options.policy.backoff)),
    },
  });
  w.on('error', options.logError('worker'));
  void w.run().catch(options.logError('worker'));
  return w;
}

export function startHandoffWorker(options: HandoffWorkerOptions): HandoffWorker {
  const inFlight: InFlight = { count: 0 };
  const processJob = handoffProcessor(options, inFlight);
  // Blocking reads need a connection that waits (BullMQ requires maxRetriesPerRequest: null);
  // lazy, because BullMQ opens its own duplicates of it.
  const connection = connectRedis(options.redis, {
    overrides: { maxRetriesPerRequest: null, enableOfflineQueue: true, commandTimeout: undefined, lazyConnect: true } as object,
  });
  let worker = runWorker(options, connection, processJob);

  /**
   * A worker whose connection broke while it was being set up never works again (BullMQ keeps
   * that failed set-up for good): it is replaced, so delivery resumes by itself once Redis is back.
   */
  async function watch(): Promise<void> {
    const w = worker;
    if (w.closing) return;
    const broken = await Promise.race([w.waitUntilReady().then(() => false, () => true), sleep(1_000, false, { ref: false })]);
    if (!broken || worker !== w) return;
    options.logger.warn({ store: 'shared' }, 'shared handoff outbox: worker lost its connection while starting; starting a new one');
    void w.close(true).catch(() => undefined);
    worker = runWorker(options, connection, processJob);
  }
  const watchdog = setInterval(() => void watch(), Math.min(Math.max(options.lockMs, 1_000), 5_000));
  watchdog.unref();

  return {
    async stop(graceMs) {
      clearInterval(watchdog);
      const w = worker;
      const closed = w.close().then(() => true);
      if (!(await Promise.race([closed, sleep(graceMs, false, { ref: false })]))) {
        // What is still in flight keeps its lock until it lapses; another instance or the next start takes it over.
        void w.close(true).catch(() => undefined);
      }
      return inFlight.count;
    },
    async close() {
      clearInterval(watchdog);
      // With Redis gone, BullMQ's close can wait for a connection forever: bounded, then cut.
      await Promise.race([worker.close(true).catch(() => undefined), sleep(CLOSE_WAIT_MS, undefined, { ref: false })]);
      connection.disconnect();
    },
  };
}
