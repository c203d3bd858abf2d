/**
 * Upgrading to the hash-tagged queue prefix `{chat-adapter}` loses no handoff: jobs an older
 * version queued under `chat-adapter` (waiting, or waiting to retry) are delivered by the new
 * version, each once, and new handoffs go under the new prefix. A real redis-server.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handoff } from '../../schemas/handoff.schema.ts';
import { createBullmqOutbox } from '../../src/outbox/bullmq-outbox.ts';
import { LEGACY_BULLMQ_PREFIX } from '../../src/outbox/bullmq-legacy-prefix.ts';
import { BULLMQ_PREFIX } from '../../src/outbox/bullmq-worker.ts';
import { silentOutboxEvents } from '../../src/outbox/outbox.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { handoff, waitFor } from './outbox-contract.ts';

let redis: TestRedis;
let raw: Redis;
beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
});
afterAll(async () => {
  raw?.disconnect();
  await redis?.stop();
});

/** Queues `handoffs` the way the version before the hash tag did (its prefix, its job shape). */
async function queueAsBefore(queueName: string, handoffs: readonly Handoff[], delayMs = 0): Promise<void> {
  const old = new Queue(queueName, { connection: { host: '127.0.0.1', port: redis.port }, prefix: LEGACY_BULLMQ_PREFIX });
  try {
    const at = Date.now();
    for (const one of handoffs) {
      await old.add('handoff', { handoff: one, trace: {}, createdAt: at, queuedAt: at }, { jobId: one.handoff_id, delay: delayMs, removeOnComplete: true });
    }
  } finally {
    await old.close();
  }
}

describe('the shared outbox after the queue prefix changed', () => {
  it('delivers each handoff an older version left queued, once, and queues new ones under {chat-adapter}', async () => {
    const queueName = `handoffs-${randomUUID()}`;
    const waiting = [handoff(), handoff()];
    const retrying = [handoff()];
    await queueAsBefore(queueName, waiting);
    await queueAsBefore(queueName, retrying, 300);
    const delivered: string[] = [];
    const outbox = createBullmqOutbox({
      redis: redis.url,
      deliver: async (one) => (delivered.push(one.handoff_id), { result: 'delivered' }),
      policy: { backoff: { baseMs: 20, capMs: 100 }, maxAgeMs: 60_000 },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      events: silentOutboxEvents,
      queueName,
      lockMs: 1_000,
    });
    try {
      await waitFor(async () => ((await outbox.ready()) ? true : undefined), 5_000, 'Redis');
      outbox.start();
      const fresh = handoff();
      await outbox.enqueue(fresh);
      expect(await raw.exists(`${BULLMQ_PREFIX}:${queueName}:${fresh.handoff_id}`)).toBe(1);
      await waitFor(() => (delivered.length === 4 ? true : undefined), 10_000, 'every handoff delivered');
      expect([...delivered].sort()).toEqual([...waiting, ...retrying, fresh].map((one) => one.handoff_id).sort());
      await waitFor(async () => ((await raw.exists(`${LEGACY_BULLMQ_PREFIX}:${queueName}:wait`, `${LEGACY_BULLMQ_PREFIX}:${queueName}:delayed`)) === 0 ? true : undefined), 5_000, 'the old queue to empty');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(delivered).toHaveLength(4);
    } finally {
      await outbox.stop(0);
      await outbox.close();
    }
  });
});
