/**
 * Concurrency ceilings shared through a real redis-server (src/fairness/redis-concurrency.ts): two
 * instances count on the same counters, each counter is one single-slot key, a lease never given
 * back expires, and while Redis is down each instance counts in process (a fallback, never a refusal).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admission } from '../../src/fairness/concurrency-ceilings.ts';
import { concurrencyKey, RedisConcurrency } from '../../src/fairness/redis-concurrency.ts';
import { connectRedis } from '../../src/shared-state/redis-connection.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';

let redis: TestRedis;
const connections: Redis[] = [];
const connect = () => {
  const client = connectRedis(redis.url);
  connections.push(client);
  return client;
};
const until = async (check: () => Promise<boolean>, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};
const ready = (client: Redis) => until(async () => client.status === 'ready');

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const client of connections) client.disconnect();
  await redis?.stop();
});

const admitted = (admission: Admission) => {
  if (!admission.admitted) throw new Error(`refused by ${admission.ceiling}`);
  return admission.release;
};

describe('RedisConcurrency', () => {
  it('shares each counter between instances and names the ceiling that refused', async () => {
    const [one, two] = [connect(), connect()];
    await Promise.all([ready(one), ready(two)]);
    const a = new RedisConcurrency({ redis: one, leaseMs: 60_000 });
    const b = new RedisConcurrency({ redis: two, leaseMs: 60_000 });
    const counts = (clientId: string) => [
      { ceiling: 'client' as const, id: clientId, max: 2 },
      { ceiling: 'organisation' as const, id: 'org-shared', max: 3 },
    ];
    const first = admitted(await a.acquire(counts('key:widget')));
    admitted(await b.acquire(counts('key:widget')));
    expect(await a.acquire(counts('key:widget'))).toEqual({ admitted: false, ceiling: 'client' });
    admitted(await b.acquire(counts('ip:10.0.0.1')));
    expect(await a.acquire(counts('ip:10.0.0.2'))).toEqual({ admitted: false, ceiling: 'organisation' });
    // The refused chat left nothing counted on the client it was admitted by.
    expect(await one.zcard(concurrencyKey({ ceiling: 'client', id: 'ip:10.0.0.2' }))).toBe(0);
    first();
    await until(async () => (await one.zcard(concurrencyKey({ ceiling: 'client', id: 'key:widget' }))) === 1);
    admitted(await a.acquire(counts('key:widget')));
  });

  it('keeps each counter under a key of its own hash tag, the id hashed (one slot per call on a Cluster)', () => {
    const key = concurrencyKey({ ceiling: 'client', id: 'ip:::1' });
    expect(key).toMatch(/^chat-adapter:\{conc:[0-9a-f]{32}\}$/);
    expect(concurrencyKey({ ceiling: 'organisation', id: 'ip:::1' })).not.toBe(key);
  });

  it('expires a lease that was never given back', async () => {
    const client = connect();
    await ready(client);
    const ceilings = new RedisConcurrency({ redis: client, leaseMs: 300 });
    const count = [{ ceiling: 'client' as const, id: 'crashed-instance', max: 1 }];
    admitted(await ceilings.acquire(count));
    expect((await ceilings.acquire(count)).admitted).toBe(false);
    await new Promise((r) => setTimeout(r, 400));
    expect((await ceilings.acquire(count)).admitted).toBe(true);
  });

  it('counts in process while Redis is down, and shares again once it is back', async () => {
    const [one, two] = [connect(), connect()];
    await Promise.all([ready(one), ready(two)]);
    const fallbacks: string[] = [];
    const a = new RedisConcurrency({ redis: one, leaseMs: 60_000, onFallback: (err) => fallbacks.push(err.message) });
    const b = new RedisConcurrency({ redis: two, leaseMs: 60_000 });
    const count = [{ ceiling: 'client' as const, id: 'outage-client', max: 1 }];
    await redis.stop();
    try {
      // Per instance: each lets one in, and refuses the second of its own.
      const release = admitted(await a.acquire(count));
      expect((await a.acquire(count)).admitted).toBe(false);
      admitted(await b.acquire(count));
      expect(fallbacks.length).toBeGreaterThanOrEqual(2);
      release();
    } finally {
      await redis.start();
    }
    await Promise.all([ready(one), ready(two)]);
    admitted(await a.acquire(count));
    expect(await b.acquire(count)).toEqual({ admitted: false, ceiling: 'client' });
  });
});
