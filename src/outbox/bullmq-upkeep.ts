/**
 * The shared outbox's background work, started with the outbox: its worker (bullmq-worker.ts), a
 * second worker while jobs an older version queued under the old key prefix are undelivered
 * (bullmq-legacy-prefix.ts), and the hourly sweep that deletes dead letters past
 * HANDOFF_DEAD_LETTER_TTL_S (BullMQ only ages them out when a later job fails).
 */
import { legacyJobsPending, LEGACY_BULLMQ_PREFIX } from './bullmq-legacy-prefix.ts';
import type { BullmqProducer } from './bullmq-producer.ts';
import { startHandoffWorker, type HandoffWorker, type HandoffWorkerOptions } from './bullmq-worker.ts';

export interface BullmqUpkeepOptions {
  /** What every worker is started with (its prefix aside). */
  readonly worker: Omit<HandoffWorkerOptions, 'prefix'>;
  readonly producer: BullmqProducer;
  /** On a Redis Cluster the old prefix never ran (its keys span slots): nothing to drain. */
  readonly onCluster: boolean;
  readonly deadLetterTtlSeconds: number;
  readonly deadLetterSweepMs: number;
}

export interface BullmqUpkeep {
  start(): void;
  /** Stops taking jobs; resolves with how many were still in flight after `graceMs`. */
  stop(graceMs: number): Promise<number>;
  close(): Promise<void>;
}

export function bullmqUpkeep(options: BullmqUpkeepOptions): BullmqUpkeep {
  const { producer } = options;
  const { logger, queueName } = options.worker;
  let worker: HandoffWorker | undefined;
  let legacyWorker: HandoffWorker | undefined;
  const startWorker = (prefix?: string): HandoffWorker => startHandoffWorker({ ...options.worker, ...(prefix === undefined ? {} : { prefix }) });
  /** Jobs an older version queued under the old prefix get a worker of their own. */
  const drainLegacyPrefix = async (): Promise<void> => {
    if (options.onCluster || legacyWorker !== undefined || producer.connection.status !== 'ready') return;
    if (!(await legacyJobsPending(producer.connection, queueName))) return;
    logger.warn({ store: 'shared', prefix: LEGACY_BULLMQ_PREFIX }, 'handoffs queued under the old key prefix found: delivering them');
    legacyWorker = startWorker(LEGACY_BULLMQ_PREFIX);
  };
  let sweeper: NodeJS.Timeout | undefined;
  const sweepDeadLetters = async (): Promise<void> => {
    await drainLegacyPrefix().catch(() => undefined);
    try {
      const removed = await (await producer.queue()).clean(options.deadLetterTtlSeconds * 1000, 1_000, 'failed');
      if (removed.length > 0) logger.info({ store: 'shared', dead_letters: removed.length }, 'expired dead-lettered handoffs deleted');
    } catch {
      // Redis unreachable: the next sweep tries again.
    }
  };

  return {
    start() {
      if (sweeper === undefined) {
        sweeper = setInterval(() => void sweepDeadLetters(), options.deadLetterSweepMs);
        sweeper.unref();
        void sweepDeadLetters();
        // Each time Redis is reached again, too: the start may have come before it answered.
        producer.connection.on('ready', () => void drainLegacyPrefix().catch(() => undefined));
      }
      worker ??= startWorker();
    },
    async stop(graceMs) {
      const [left = 0, legacyLeft = 0] = await Promise.all([worker?.stop(graceMs), legacyWorker?.stop(graceMs)]);
      return left + legacyLeft;
    },
    async close() {
      clearInterval(sweeper);
      await Promise.all([worker?.close(), legacyWorker?.close()]);
    },
  };
}
