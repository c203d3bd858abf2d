/**
 * Concurrency ceilings on a Redis Cluster (src/fairness/redis-concurrency.ts): a chat's counters lie
 * in different slots, so each is asked with a script of its own; the same sharing, refusals and
 * releases as on one node, and a lease given back reaches its counter before the next admission.
 */
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Admission } from '../../src/fairness/concurrency-ceilings.ts';
import { concurrencyKey, RedisConcurrency } from '../../src/fairness/redis-concurrency.ts';
import { startTestRedisCluster, type TestRedisCluster } from '../helpers/redis-cluster.ts';

let cluster: TestRedisCluster;
const clients: Cluster[] = [];
const connect = async (): Promise<Cluster> => {
  const client = new Cluster([...cluster.nodes], { redisOptions: { connectTimeout: 1000 } });
  clients.push(client);
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', reject);
  });
  return client;
};
const until = async (check: () => Promise<boolean>, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};
const admitted = (admission: Admission) => {
  if (!admission.admitted) throw new Error(`refused by ${admission.ceiling}`);
  return admission.release;
};

beforeAll(async () => {
  cluster = await startTestRedisCluster({ primaries: 3, replicasPerPrimary: 0 });
}, 120_000);
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await cluster?.stop();
}, 60_000);

describe('RedisConcurrency on a Cluster', () => {
  it('shares counters in different slots between instances, refuses by name, and a refused chat keeps no lease', async () => {
    const [one, two] = [await connect(), await connect()];
    const a = new RedisConcurrency({ redis: one, leaseMs: 60_000 });
    const b = new RedisConcurrency({ redis: two, leaseMs: 60_000 });
    const counts = (clientId: string) => [
      { ceiling: 'client' as const, id: clientId, max: 2 },
      { ceiling: 'organisation' as const, id: 'cluster-org', max: 3 },
    ];
    const first = admitted(await a.acquire(counts('key:widget')));
    admitted(await b.acquire(counts('key:widget')));
    expect(await a.acquire(counts('key:widget'))).toEqual({ admitted: false, ceiling: 'client' });
    admitted(await b.acquire(counts('ip:10.0.0.1')));
    expect(await a.acquire(counts('ip:10.0.0.2'))).toEqual({ admitted: false, ceiling: 'organisation' });
    await until(async () => (await one.zcard(concurrencyKey({ ceiling: 'client', id: 'ip:10.0.0.2' }))) === 0);
    first();
    await until(async () => (await one.zcard(concurrencyKey({ ceiling: 'client', id: 'key:widget' }))) === 1);
    await until(async () => (await one.zcard(concurrencyKey({ ceiling: 'organisation', id: 'cluster-org' }))) === 2);
    admitted(await a.acquire(counts('key:widget')));
  });

  it('gives a lease back before the next admission of the same turn of the event loop', async () => {
    const client = await connect();
    const ceilings = new RedisConcurrency({ redis: client, leaseMs: 60_000 });
    const counts = [
      { ceiling: 'client' as const, id: 'key:cluster-one-place', max: 1 },
      { ceiling: 'organisation' as const, id: 'cluster-org-one-place', max: 1 },
    ];
    const release = admitted(await ceilings.acquire(counts));
    release();
    admitted(await ceilings.acquire(counts));
    expect(await client.zcard(concurrencyKey(counts[0]!))).toBe(1);
    expect(await client.zcard(concurrencyKey(counts[1]!))).toBe(1);
  });
});
