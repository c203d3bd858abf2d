/**
 * The shared outbox's writing side: one Redis connection that fails fast (no offline queue, a short
 * command timeout: a chat never waits on Redis) and the BullMQ queue on it, opened when first needed
 * and opened again after a failed start.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import type { RedisTarget } from '../config/redis-target.ts';
import { OutboxUnavailableError } from '../errors.ts';
import type { Logger } from '../pipeline/ports.ts';
import { connectRedis, type RedisClient } from '../shared-state/redis-connection.ts';
import type { HandoffJobData } from './bullmq-jobs.ts';
import { BULLMQ_PREFIX, CLOSE_WAIT_MS } from './bullmq-worker.ts';
import { safeReason } from './outbox.ts';

export interface BullmqProducerOptions {
  readonly redis: RedisTarget | string;
  readonly queueName: string;
  /** A write that takes longer fails over to the local outbox. */
  readonly commandTimeoutMs: number;
  readonly logger: Logger;
  readonly logError: (what: string) => (err: Error) => void;
}

export interface BullmqProducer {
  readonly connection: RedisClient;
  /** The queue, once Redis is connected; OutboxUnavailableError while it is not. */
  queue(): Promise<Queue<HandoffJobData>>;
  /** Closes the queue (waiting at most CLOSE_WAIT_MS for BullMQ), then the connection. */
  close(): Promise<void>;
}

export function openBullmqProducer(options: BullmqProducerOptions): BullmqProducer {
  const { logger } = options;
  const connection = connectRedis(options.redis, {
    commandTimeoutMs: options.commandTimeoutMs,
    onOutage: (err) => logger.warn({ store: 'shared', reason: safeReason(err) }, 'shared handoff outbox: Redis unreachable; handoffs go to the local outbox'),
  });
  let opened: Promise<Queue<HandoffJobData>> | undefined;
  const open = (): Promise<Queue<HandoffJobData>> =>
    (opened ??= (async () => {
      const q = new Queue<HandoffJobData>(options.queueName, { connection, prefix: BULLMQ_PREFIX });
      q.on('error', options.logError('queue'));
      try {
        await q.waitUntilReady();
        return q;
      } catch (err) {
        opened = undefined;
        await q.close().catch(() => undefined);
        throw err;
      }
    })());

  return {
    connection,
    async queue() {
      if (connection.status !== 'ready') throw new OutboxUnavailableError(`shared outbox: Redis ${connection.status}`);
      return open();
    },
    async close() {
      const q = opened;
      opened = undefined;
      if (q !== undefined) {
        const closed = q.then((queue) => queue.close()).catch(() => undefined);
        await Promise.race([closed, sleep(CLOSE_WAIT_MS, undefined, { ref: false })]);
      }
      connection.disconnect();
    },
  };
}
