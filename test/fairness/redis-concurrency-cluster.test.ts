/**
 * Concurrency ceilings on a Redis Cluster (src/fairness/redis-concurrency.ts): a chat's counters lie
 * in different slots, so each is asked with a script of its own; the same sharing, refusals and
 * releases as on one node, and a lease given back reaches its counter before the next admission.
 */
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concurrencyKey, RedisConcurrency } from '../../src/fairness/redis-concurrency.ts';
import { admitted, expectSharedCounters } from '../helpers/ceiling-checks.ts';
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
    await expectSharedCounters(a, b, (key) => one.zcard(key), 'cluster-org');
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
