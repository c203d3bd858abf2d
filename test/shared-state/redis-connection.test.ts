/**
 * connectRedis on a single node (docs/operations.md#redis-topologies) behaves as the service's
 * shared state needs: commands fail fast while Redis is down (never queued, never hung), the
 * outage is reported once however many reconnects fail, and the connection is back by itself
 * soon after Redis is. A real redis-server, killed and restarted on the same port.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleRedisTarget } from '../../src/config/redis-target.ts';
import { connectRedis, hasAnswered, reconnectDelayMs, redisAnswers } from '../../src/shared-state/redis-connection.ts';
import { freePort, startTestRedis, type TestRedis } from '../helpers/redis-server.ts';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});

async function timed<T>(work: Promise<T>): Promise<{ ms: number; outcome: T | Error }> {
  const started = performance.now();
  const outcome = await work.catch((err: unknown) => err as Error);
  return { ms: performance.now() - started, outcome };
}

describe('connectRedis (single node)', () => {
  it('answers, and reports that it has reached Redis', async () => {
    const client = connectRedis(singleRedisTarget(redis.url));
    try {
      expect(hasAnswered(client)).toBe(false);
      await once(client, 'ready');
      expect(hasAnswered(client)).toBe(true);
      expect(await redisAnswers(client)).toBe(true);
      await client.set('connection-test', 'v');
      expect(await client.get('connection-test')).toBe('v');
    } finally {
      client.disconnect();
    }
  });

  it('fails each command at once while Redis is down, reports the outage once, and is back by itself after Redis is', async () => {
    const outages: Error[] = [];
    const client = connectRedis(redis.url, { onOutage: (err) => outages.push(err) });
    try {
      await once(client, 'ready');
      await redis.stop();
      // Several reconnect attempts fail meanwhile (at most about a second apart).
      await sleep(700);
      for (let i = 0; i < 3; i += 1) {
        const { ms, outcome } = await timed(client.get('k'));
        expect(outcome).toBeInstanceOf(Error);
        expect(ms).toBeLessThan(50);
      }
      expect(outages).toHaveLength(1);
      const startedAt = performance.now();
      await redis.start();
      // The client may be back before start() has seen Redis answer, or shortly after.
      if (client.status !== 'ready') await once(client, 'ready');
      expect(performance.now() - startedAt).toBeLessThan(2_500);
      expect(await client.ping()).toBe('PONG');
      // A second outage is a new one: reported again.
      await redis.stop();
      await sleep(300);
      expect(outages).toHaveLength(2);
    } finally {
      client.disconnect();
      await redis.start();
    }
  });

  it('never reaching Redis: commands fail at once, nothing has answered', async () => {
    const outages: Error[] = [];
    const client = connectRedis(`redis://127.0.0.1:${await freePort()}`, { onOutage: (err) => outages.push(err) });
    try {
      await sleep(300);
      const { ms, outcome } = await timed(client.set('k', 'v'));
      expect(outcome).toBeInstanceOf(Error);
      expect(ms).toBeLessThan(50);
      expect(hasAnswered(client)).toBe(false);
      expect(outages).toHaveLength(1);
      expect(await redisAnswers(client).catch(() => false)).toBe(false);
    } finally {
      client.disconnect();
    }
  });
});

describe('reconnectDelayMs', () => {
  it('grows with the attempts up to 1 s, each delay in the upper half of its step, so instances spread out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (times, r) => {
        const ceiling = Math.min(100 * times, 1_000);
        const delay = reconnectDelayMs(times, () => r);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThanOrEqual(ceiling);
      }),
    );
    // Jitter: two instances drawing differently wait differently.
    expect(reconnectDelayMs(5, () => 0)).not.toBe(reconnectDelayMs(5, () => 0.9));
  });
});
