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
import { admitted, expectSharedCounters, until } from '../helpers/ceiling-checks.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';

let redis: TestRedis;
const connections: Redis[] = [];
const connect = () => {
  const client = connectRedis(redis.url);
  connections.push(client);
  return client;
};
const ready = (client: Redis) => until(async () => client.status === 'ready');

beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const client of connections) client.disconnect();
  await redis?.stop();
});

describe('RedisConcurrency', () => {
  it('shares each counter between instances and names the ceiling that refused', async () => {
    const [one, two] = [connect(), connect()];
    await Promise.all([ready(one), ready(two)]);
    const a = new RedisConcurrency({ redis: one, leaseMs: 60_000 });
    const b = new RedisConcurrency({ redis: two, leaseMs: 60_000 });
    await expectSharedCounters(a, b, (key) => one.zcard(key), 'org-shared');
  });

  it('sends a lease given back with the next admission, before it: one call, and the freed place is taken', async () => {
    const client = connect();
    const watcher = connect();
    await Promise.all([ready(client), ready(watcher)]);
    const ceilings = new RedisConcurrency({ redis: client, leaseMs: 60_000 });
    const counts = [
      { ceiling: 'client' as const, id: 'key:one-place', max: 1 },
      { ceiling: 'organisation' as const, id: 'org-one-place', max: 1 },
    ];
    const release = admitted(await ceilings.acquire(counts));
    const monitor = await watcher.monitor();
    const calls: string[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua') calls.push(String(args[0]).toLowerCase());
    });
    await new Promise((r) => setTimeout(r, 50));
    // Given back and asked again in the same turn of the event loop, as when a chat ends and the next arrives.
    release();
    const next = ceilings.acquire(counts);
    admitted(await next);
    await new Promise((r) => setTimeout(r, 50));
    monitor.disconnect();
    expect(calls).toEqual(['evalsha']);
    expect(await client.zcard(concurrencyKey(counts[0]!))).toBe(1);
    expect(await client.zcard(concurrencyKey(counts[1]!))).toBe(1);
  });

  it('admits the chats of one turn of the event loop in one call, in the order they came, up to the ceiling', async () => {
    const client = connect();
    const watcher = connect();
    await Promise.all([ready(client), ready(watcher)]);
    const ceilings = new RedisConcurrency({ redis: client, leaseMs: 60_000 });
    const counts = (clientId: string) => [
      { ceiling: 'client' as const, id: clientId, max: 2 },
      { ceiling: 'organisation' as const, id: 'org-one-call', max: 4 },
    ];
    admitted(await ceilings.acquire(counts('key:warm'))); // Redis learns the script first
    const monitor = await watcher.monitor();
    const calls: string[] = [];
    monitor.on('monitor', (_time: string, args: string[], source: string) => {
      if (source !== 'lua') calls.push(String(args[0]).toLowerCase());
    });
    await new Promise((r) => setTimeout(r, 50));
    const ids = ['key:a', 'key:a', 'key:a', 'key:b', 'key:b', 'key:c'];
    const answers = await Promise.all(ids.map((id) => ceilings.acquire(counts(id))));
    await new Promise((r) => setTimeout(r, 50));
    monitor.disconnect();
    expect(calls).toEqual(['evalsha']);
    // key:a's third is over its client ceiling; key:c finds the organisation full (warm, a, a, b).
    expect(answers.map((a) => (a.admitted ? 'in' : a.ceiling))).toEqual(['in', 'in', 'client', 'in', 'organisation', 'organisation']);
    expect(await client.zcard(concurrencyKey(counts('key:a')[0]!))).toBe(2);
    expect(await client.zcard(concurrencyKey(counts('key:b')[0]!))).toBe(1);
    expect(await client.zcard(concurrencyKey(counts('key:c')[0]!))).toBe(0);
    expect(await client.zcard(concurrencyKey(counts('key:a')[1]!))).toBe(4);
  });

  it('gives back, once the turn of the event loop ends, a lease no admission followed; a refused chat is counted on none', async () => {
    const client = connect();
    await ready(client);
    const ceilings = new RedisConcurrency({ redis: client, leaseMs: 60_000 });
    const counts = (clientId: string) => [
      { ceiling: 'client' as const, id: clientId, max: 5 },
      { ceiling: 'organisation' as const, id: 'org-of-two', max: 2 },
    ];
    const releases = [admitted(await ceilings.acquire(counts('key:first'))), admitted(await ceilings.acquire(counts('key:second')))];
    expect(await ceilings.acquire(counts('key:third'))).toEqual({ admitted: false, ceiling: 'organisation' });
    expect(await client.zcard(concurrencyKey(counts('key:third')[0]!))).toBe(0);
    for (const release of releases) release();
    await until(async () => (await client.zcard(concurrencyKey(counts('key:first')[1]!))) === 0);
    expect(await client.zcard(concurrencyKey(counts('key:first')[0]!))).toBe(0);
  });

  it('gives back a burst of more leases than one call takes, all before the next admission', async () => {
    const client = connect();
    await ready(client);
    const ceilings = new RedisConcurrency({ redis: client, leaseMs: 60_000 });
    const counts = [
      { ceiling: 'client' as const, id: 'key:burst', max: 2_600 },
      { ceiling: 'organisation' as const, id: 'org-burst', max: 2_600 },
    ];
    const releases = (await Promise.all(Array.from({ length: 2_500 }, () => ceilings.acquire(counts)))).map(admitted);
    expect(await client.zcard(concurrencyKey(counts[0]!))).toBe(2_500);
    for (const release of releases) release();
    admitted(await ceilings.acquire(counts));
    expect(await client.zcard(concurrencyKey(counts[0]!))).toBe(1);
    expect(await client.zcard(concurrencyKey(counts[1]!))).toBe(1);
  });

  it('after a stall, gives the leases of chats that ended back with the next admission, not a back-off later', async () => {
    const client = connect();
    await ready(client);
    const ceilings = new RedisConcurrency({ redis: client, leaseMs: 60_000 });
    const counts = [{ ceiling: 'client' as const, id: 'key:stalled', max: 4 }];
    const releases = (await Promise.all(Array.from({ length: 4 }, () => ceilings.acquire(counts)))).map(admitted);
    // Four chats end; the admission that carries their leases back meets a stalled Redis and times out.
    for (const release of releases) release();
    redis.pause();
    let stalled: Admission;
    try {
      stalled = await ceilings.acquire(counts);
    } finally {
      redis.resume();
    }
    // Counted in process, and its lease (which Redis may have taken) goes back too.
    admitted(stalled)();
    // Right away, as a busy instance's next chats would: four places are free on Redis.
    const next = await Promise.all(Array.from({ length: 4 }, () => ceilings.acquire(counts)));
    expect(next.map((a) => a.admitted)).toEqual([true, true, true, true]);
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
