/**
 * The service's own Redis connections (src/shared-state/redis-connection.ts, replica-ack.ts, the
 * BullMQ outbox) on a real Cluster and a real Sentinel set, configured the way an operator does
 * (the variables read by src/config/redis-target.ts): readiness, a replica's acknowledgement sent
 * to the node that took the write, and a failover handled as an outage that ends by itself.
 * Run with REDIS_FLAVOUR=valkey for Valkey.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRedisTarget, type RedisTarget } from '../../../src/config/redis-target.ts';
import { createBullmqOutbox } from '../../../src/outbox/bullmq-outbox.ts';
import { silentOutboxEvents } from '../../../src/outbox/outbox.ts';
import { connectRedis, hasAnswered, redisAnswers, type RedisClient } from '../../../src/shared-state/redis-connection.ts';
import { createReplicaAcks, type ReplicatedWriteKind } from '../../../src/shared-state/replica-ack.ts';
import { startTestRedisCluster, type TestRedisCluster } from '../../helpers/redis-cluster.ts';
import { pollUntil } from '../../helpers/redis-node.ts';
import { redisPrograms } from '../../helpers/redis-programs.ts';
import { startTestRedisSentinel, type TestRedisSentinel } from '../../helpers/redis-sentinel.ts';
import { handoff } from '../../outbox/outbox-contract.ts';

const PASSWORD = 'topology connections password';
const keys = Array.from({ length: 30 }, (_, i) => `connections:{session-${i}}:turns`);

function recordingAcks() {
  const counted: ReplicatedWriteKind[] = [];
  // As compose.ts makes them for a Cluster: a short WAIT speaks for its own node only.
  const acks = createReplicaAcks({ replicas: 1, timeoutMs: 100 }, { unreplicated: (kind) => counted.push(kind), warn() {} }, Date.now, false);
  return { acks, counted };
}

/** A write then its acknowledgement, each timed; the error when the write failed. */
async function writeAndConfirm(client: RedisClient, acks: ReturnType<typeof recordingAcks>['acks'], key: string) {
  const started = performance.now();
  try {
    await client.set(key, 'v');
    await acks.confirm(client, key, 'turn');
    return { ok: true, ms: performance.now() - started };
  } catch {
    return { ok: false, ms: performance.now() - started };
  }
}

/**
 * Writes every 20 ms until `until()` holds and one more write succeeded; says how long
 * the slowest write took and when writes succeeded again (performance.now()).
 */
async function writeThrough(client: RedisClient, acks: ReturnType<typeof recordingAcks>['acks'], key: string, until: () => boolean) {
  let slowestMs = 0;
  let failed = 0;
  for (;;) {
    const done = until();
    const { ok, ms } = await writeAndConfirm(client, acks, key);
    slowestMs = Math.max(slowestMs, ms);
    if (!ok) failed += 1;
    if (ok && done) return { slowestMs, failed, backAt: performance.now() };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe(`the service's connections on a ${redisPrograms().flavour} cluster (3 primaries, 3 replicas, a password)`, () => {
  let cluster: TestRedisCluster;
  let target: RedisTarget;
  let client: RedisClient;
  const outages: Error[] = [];
  beforeAll(async () => {
    cluster = await startTestRedisCluster({ password: PASSWORD });
    target = readRedisTarget({ REDIS_CLUSTER_NODES: cluster.addresses.slice(0, 2).join(','), REDIS_PASSWORD: PASSWORD })!;
    client = connectRedis(target, { onOutage: (err) => outages.push(err) });
    await once(client, 'ready');
  }, 120_000);
  afterAll(async () => {
    client?.disconnect();
    await cluster?.stop();
  }, 60_000);

  it('is ready once the cluster is whole and every primary answers', async () => {
    expect(target.kind).toBe('cluster');
    expect(hasAnswered(client)).toBe(true);
    expect(await redisAnswers(client)).toBe(true);
  });

  it("sends WAIT to the node that took the write: only writes of the primary whose replica is gone go unacknowledged", async () => {
    const { acks, counted } = recordingAcks();
    for (const key of keys) {
      await client.set(key, 'v');
      await acks.confirm(client, key, 'turn');
    }
    expect(counted).toEqual([]);
    const victimPrimary = await cluster.primaryForKey(keys[0]!);
    const [replica] = await cluster.replicasOf(victimPrimary);
    await cluster.killNode(replica!);
    try {
      const owners = await Promise.all(keys.map((key) => cluster.primaryForKey(key)));
      for (const key of keys) {
        await client.set(key, 'again');
        await acks.confirm(client, key, 'turn');
      }
      expect(counted).toHaveLength(owners.filter((port) => port === victimPrimary).length);
      expect(counted.length).toBeGreaterThan(0);
      expect(counted.length).toBeLessThan(keys.length);
    } finally {
      await cluster.startNode(replica!);
      // Back as a replica in sync before the next test, which fails over a primary.
      await cluster.waitForReplica(replica!);
    }
  });

  it('queues and delivers handoffs under {chat-adapter}, each acknowledged by a replica', async () => {
    const { acks, counted } = recordingAcks();
    const delivered: string[] = [];
    const outbox = createBullmqOutbox({
      redis: target,
      replicaAcks: acks,
      queueName: `handoffs-${randomUUID()}`,
      deliver: async (one) => (delivered.push(one.handoff_id), { result: 'delivered' }),
      policy: { backoff: { baseMs: 20, capMs: 100 }, maxAgeMs: 60_000 },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      events: silentOutboxEvents,
      lockMs: 1_000,
    });
    try {
      await pollUntil(async () => ((await outbox.ready()) ? true : undefined), 10_000, 'the outbox ready on the cluster');
      outbox.start();
      const sent = [handoff(), handoff(), handoff()];
      for (const one of sent) await outbox.enqueue(one);
      await pollUntil(async () => (delivered.length === sent.length ? true : undefined), 15_000, 'every handoff delivered');
      expect([...delivered].sort()).toEqual(sent.map((one) => one.handoff_id).sort());
      // The replica restarted by the test before may still be syncing: at most these go unacknowledged.
      expect(counted.length).toBeLessThanOrEqual(sent.length);
    } finally {
      await outbox.stop(0);
      await outbox.close();
    }
  });

  it('a killed primary is an outage: writes fail fast, it is reported once, and they succeed again soon after the promotion', async () => {
    const { acks } = recordingAcks();
    const key = keys[1]!;
    await pollUntil(async () => ((await redisAnswers(client).catch(() => false)) ? true : undefined), 15_000, 'the cluster whole again');
    const before = outages.length;
    const victim = await cluster.primaryForKey(key);
    // A replica to promote, seen by the cluster (one restarted a moment ago may still be flagged failed).
    await pollUntil(async () => ((await cluster.replicasOf(victim)).length > 0 ? true : undefined), 30_000, `a replica of ${victim} to promote`);
    await cluster.killNode(victim);
    let promoted: { at: number; ms: number } | undefined;
    const promotion = cluster.waitForPromotion(victim, 30_000).then((p) => (promoted = p));
    const run = await writeThrough(client, acks, key, () => promoted !== undefined);
    await promotion;
    console.log(`cluster failover: promoted after ${Math.round(promoted!.ms)} ms; ${run.failed} writes failed meanwhile, the slowest took ${Math.round(run.slowestMs)} ms; writing again ${Math.round(run.backAt - promoted!.at)} ms after the promotion`);
    expect(run.failed).toBeGreaterThan(0);
    // A failover in progress is an outage, not a wait: no write is held much past the command timeout.
    expect(run.slowestMs).toBeLessThan(1_000);
    expect(run.backAt - promoted!.at).toBeLessThan(2_000);
    expect(outages.length - before).toBe(1);
    expect(await client.get(key)).toBe('v');
    await cluster.startNode(victim);
  });
});

describe(`the service's connections on ${redisPrograms().flavour} Sentinel (a primary, a replica, three sentinels, passwords)`, () => {
  const SENTINEL_PASSWORD = 'topology sentinel password';
  let set: TestRedisSentinel;
  let target: RedisTarget;
  let client: RedisClient;
  const outages: Error[] = [];
  beforeAll(async () => {
    set = await startTestRedisSentinel({ password: PASSWORD, sentinelPassword: SENTINEL_PASSWORD });
    target = readRedisTarget({
      REDIS_SENTINELS: set.sentinelAddresses.join(','), REDIS_SENTINEL_NAME: set.name, REDIS_PASSWORD: PASSWORD, REDIS_SENTINEL_PASSWORD: SENTINEL_PASSWORD,
    })!;
    client = connectRedis(target, { onOutage: (err) => outages.push(err) });
    await once(client, 'ready');
  }, 120_000);
  afterAll(async () => {
    client?.disconnect();
    await set?.stop();
  }, 60_000);

  it('reaches the primary the sentinels name, and its replica acknowledges writes', async () => {
    expect(target).toMatchObject({ kind: 'sentinel', wait: { replicas: 1 } });
    expect(await redisAnswers(client)).toBe(true);
    const { acks, counted } = recordingAcks();
    for (const key of keys) {
      await client.set(key, 'v');
      await acks.confirm(client, key, 'turn');
    }
    expect(counted).toEqual([]);
    const primary = await set.primary();
    expect(await set.adminCall(primary.port, 'GET', keys[0]!)).toBe('v');
  });

  it('a killed primary is an outage: writes fail fast, it is reported once, and they go to the promoted replica soon after', async () => {
    const { acks, counted } = recordingAcks();
    const key = keys[2]!;
    const before = outages.length;
    await set.killPrimary();
    let failover: { at: number; ms: number; port: number } | undefined;
    const promotion = set.waitForFailover(30_000).then((f) => (failover = f));
    const run = await writeThrough(client, acks, key, () => failover !== undefined);
    await promotion;
    console.log(`sentinel failover: after ${Math.round(failover!.ms)} ms; ${run.failed} writes failed meanwhile, the slowest took ${Math.round(run.slowestMs)} ms; writing again ${Math.round(run.backAt - failover!.at)} ms after it`);
    expect(run.failed).toBeGreaterThan(0);
    expect(run.slowestMs).toBeLessThan(1_000);
    expect(run.backAt - failover!.at).toBeLessThan(2_000);
    expect(outages.length - before).toBe(1);
    expect(await set.adminCall(failover!.port, 'GET', key)).toBe('v');
    // The promoted primary has no replica left: its writes are counted, the chat goes on.
    expect(counted.length).toBeGreaterThan(0);
  });
});
