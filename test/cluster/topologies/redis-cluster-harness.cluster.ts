/**
 * The Redis Cluster test harness (test/helpers/redis-cluster.ts) does what the topology tests rely
 * on, with ioredis's own cluster client: six nodes make one cluster, a write a replica acknowledged
 * (WAIT) outlives its primary's SIGKILL, and the replica that takes over serves the slot.
 * Run with REDIS_FLAVOUR=valkey for Valkey.
 */
import { readFileSync } from 'node:fs';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedisCluster, type TestRedisCluster } from '../../helpers/redis-cluster.ts';
import { adminCall, adminCaller } from '../../helpers/redis-node.ts';
import { redisPrograms } from '../../helpers/redis-programs.ts';
import { record } from '../figures.ts';

const KEYS = 120;
/** Keys with a hash tag each, as a session's keys are: spread over all three primaries. */
const keys = Array.from({ length: KEYS }, (_, i) => `harness:{session-${i}}:turns`);
const valueOf = (key: string) => `value of ${key}`;

let cluster: TestRedisCluster;
let client: Cluster;
beforeAll(async () => {
  cluster = await startTestRedisCluster({ primaries: 3, replicasPerPrimary: 1 });
  client = new Cluster([...cluster.nodes], {
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    redisOptions: { connectTimeout: 1000, maxRetriesPerRequest: 20 },
  });
}, 120_000);
afterAll(async () => {
  client?.disconnect();
  await cluster?.stop();
}, 60_000);

describe(`a ${redisPrograms().flavour} cluster of 3 primaries and 3 replicas`, () => {
  it('is one cluster: every primary serves slots and has one replica', async () => {
    const primaries = await cluster.primaryPorts();
    expect(primaries).toHaveLength(3);
    for (const port of primaries) expect(await cluster.replicasOf(port)).toHaveLength(1);
    const owners = new Set(await Promise.all(keys.map((k) => cluster.primaryForKey(k))));
    expect([...owners].sort()).toEqual(primaries);
  });

  it('after the primary owning a key is killed, its replica serves every acknowledged write; the old primary rejoins as its replica', async ({ task }) => {
    await Promise.all(keys.map((k) => client.set(k, valueOf(k))));
    // WAIT on the connections that wrote: each primary's replica has every write before the kill.
    for (const node of client.nodes('master')) expect(await node.call('WAIT', 1, 1000)).toBe(1);

    const victim = await cluster.primaryForKey(keys[0]!);
    const [replica] = await cluster.replicasOf(victim);
    const victimKeys = (await Promise.all(keys.map(async (k) => ((await cluster.primaryForKey(k)) === victim ? k : undefined)))).filter((k) => k !== undefined);
    await cluster.killNode(victim);
    const promotion = await cluster.waitForPromotion(victim);

    expect(promotion.port).toBe(replica);
    expect(await cluster.primaryForKey(keys[0]!)).toBe(promotion.port);
    expect(await Promise.all(keys.map((k) => client.get(k)))).toEqual(keys.map(valueOf));
    // Written through the client after the failover: it lands on the promoted node.
    await client.set(keys[0]!, 'after the failover');
    expect(await adminCall(promotion.port, 'GET', keys[0]!)).toBe('after the failover');

    // The killed primary, started again, rejoins as the replica of the one that took over, with the data.
    await cluster.startNode(victim);
    expect(await cluster.waitForReplica(victim)).toBe(promotion.port);
    expect(await cluster.replicasOf(promotion.port)).toEqual([victim]);
    // (A replica answers reads with MOVED unless asked READONLY first: count its keys instead.)
    expect(await cluster.adminCall(promotion.port, 'DBSIZE')).toBe(victimKeys.length);
    expect(await cluster.adminCall(victim, 'DBSIZE')).toBe(victimKeys.length);

    record(task, `${cluster.flavour} cluster`, {
      server: cluster.version.split(' sha=')[0]!,
      'replica promoted after SIGKILL of its primary': `${promotion.ms} ms (cluster-node-timeout 1000 ms)`,
      'keys on the killed primary, all read back': victimKeys.length,
    });
  });
});

describe(`a ${redisPrograms().flavour} cluster with TLS and a password`, () => {
  it('serves a client that trusts its certificate and gives the password, and refuses one without either', async () => {
    const password = 'harness password "quoted"';
    const guarded = await startTestRedisCluster({ primaries: 3, replicasPerPrimary: 1, password, tls: true });
    const ca = guarded.tlsCa!;
    expect(readFileSync(guarded.tlsCaFile!, 'utf8')).toBe(ca);
    const withBoth = new Cluster([...guarded.nodes], { redisOptions: { password, tls: { ca } } });
    try {
      await Promise.all(keys.slice(0, 10).map((k) => withBoth.set(k, valueOf(k))));
      expect(await withBoth.get(keys[9]!)).toBe(valueOf(keys[9]!));
      const owner = await guarded.primaryForKey(keys[9]!);
      expect(await guarded.adminCall(owner, 'GET', keys[9]!)).toBe(valueOf(keys[9]!));
      await expect(adminCaller(undefined, ca)(owner, 'GET', keys[9]!)).rejects.toThrow(/NOAUTH/);
      await expect(adminCaller(password)(owner, 'GET', keys[9]!)).rejects.toThrow();
    } finally {
      withBoth.disconnect();
      await guarded.stop();
    }
  });
});
