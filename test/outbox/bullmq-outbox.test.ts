import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxUnavailableError } from '../../src/errors.ts';
import { createBullmqOutbox } from '../../src/outbox/bullmq-outbox.ts';
import { silentOutboxEvents, type Outbox } from '../../src/outbox/outbox.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { describeOutboxContract, handoff, waitFor, type StoreSetup } from './outbox-contract.ts';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});

/** A shared outbox on the test Redis, connected before it is handed out. */
async function shared(setup: StoreSetup, queueName: string, url = redis.url): Promise<Outbox> {
  const outbox = createBullmqOutbox({ redis: url, ...setup, queueName, lockMs: 1_000 });
  await waitFor(async () => ((await outbox.ready()) ? true : undefined), 5_000, 'Redis');
  return outbox;
}

describeOutboxContract('shared (BullMQ on Redis)', async (setup) => {
  // Each test has its own queue: nothing of one test is delivered by another's worker.
  const queueName = `handoffs-${randomUUID()}`;
  const opened = [await shared(setup, queueName)];
  return {
    outbox: opened[0]!,
    another() {
      const next = createBullmqOutbox({ redis: redis.url, ...setup, queueName, lockMs: 1_000 });
      opened.push(next);
      return next;
    },
    async dispose() {
      for (const outbox of opened) {
        await outbox.stop(0);
        await outbox.close();
      }
    },
  };
});

const quiet: StoreSetup = {
  deliver: async () => ({ result: 'delivered' }),
  policy: { backoff: { baseMs: 20, capMs: 100 }, maxAgeMs: 60_000 },
  logger: { debug() {}, info() {}, warn() {}, error() {} },
  events: silentOutboxEvents,
};

describe('shared (BullMQ) outbox', () => {
  it('refuses a handoff at once while Redis is down (so the local outbox takes it), and recovers by itself', async () => {
    const own = await startTestRedis();
    const outbox = await shared(quiet, `handoffs-${randomUUID()}`, own.url);
    try {
      await own.stop();
      await waitFor(async () => ((await outbox.ready()) ? undefined : true), 5_000, 'the outage to be seen');
      const started = performance.now();
      await expect(outbox.enqueue(handoff())).rejects.toBeInstanceOf(OutboxUnavailableError);
      expect(performance.now() - started).toBeLessThan(1_000);
      await own.start();
      await waitFor(async () => ((await outbox.ready()) ? true : undefined), 10_000, 'Redis to be back');
      await outbox.enqueue(handoff());
      expect((await outbox.counts())[0]?.pending).toBe(1);
    } finally {
      await outbox.close();
      await own.stop();
    }
  });

  it('delivers once Redis is back, even when Redis went away while its worker was starting', async () => {
    const own = await startTestRedis();
    let delivered = 0;
    const outbox = await shared({ ...quiet, deliver: async () => (delivered++, { result: 'delivered' }) }, `handoffs-${randomUUID()}`, own.url);
    try {
      outbox.start();
      await own.stop();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await own.start();
      await waitFor(async () => ((await outbox.ready()) ? true : undefined), 10_000, 'Redis to be back');
      await outbox.enqueue(handoff());
      await waitFor(() => (delivered === 1 ? true : undefined), 10_000, 'the delivery');
    } finally {
      await outbox.close();
      await own.stop();
    }
  });
});

describe('shared (BullMQ) outbox privacy', () => {
  it('deletes a delivered job at once, and a dead one once HANDOFF_DEAD_LETTER_TTL_S has passed', async () => {
    const { Redis } = await import('ioredis');
    const { BULLMQ_PREFIX } = await import('../../src/outbox/bullmq-worker.ts');
    const client = new Redis(redis.url);
    const queueName = `handoffs-${randomUUID()}`;
    const jobKey = (id: string) => `${BULLMQ_PREFIX}:${queueName}:${id}`;
    let accept = true;
    const setup: StoreSetup = { ...quiet, deliver: async () => (accept ? { result: 'delivered' } : { result: 'permanent', reason: 'HTTP 400' }) };
    const outbox = createBullmqOutbox({ redis: redis.url, ...setup, queueName, lockMs: 1_000, deadLetterTtlSeconds: 1, deadLetterSweepMs: 200 });
    try {
      await waitFor(async () => ((await outbox.ready()) ? true : undefined), 5_000, 'Redis');
      outbox.start();
      const delivered = handoff();
      await outbox.enqueue(delivered);
      await waitFor(async () => ((await client.exists(jobKey(delivered.handoff_id))) === 0 ? true : undefined), 5_000, 'the delivered job to go');
      accept = false;
      const dead = handoff();
      await outbox.enqueue(dead);
      await waitFor(async () => ((await outbox.counts())[0]?.dead === 1 ? true : undefined), 5_000, 'the dead letter');
      expect(await client.exists(jobKey(dead.handoff_id))).toBe(1);
      await waitFor(async () => ((await outbox.counts())[0]?.dead === 0 ? true : undefined), 5_000, 'the dead letter to expire');
      expect(await client.exists(jobKey(dead.handoff_id))).toBe(0);
    } finally {
      await outbox.stop(0);
      await outbox.close();
      client.disconnect();
    }
  });
});
