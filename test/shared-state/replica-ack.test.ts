/**
 * Writes a failover must not lose (docs/operations.md#what-a-failover-costs): with a replica wanted
 * (REDIS_WAIT_REPLICAS=1), a kept Idempotency-Key answer and a queued handoff are on the replica
 * when the call that wrote them returns; a replica that does not answer in time costs the caller
 * no more than REDIS_WAIT_TIMEOUT_MS and is counted; with 0 wanted, no WAIT is sent at all.
 * A real primary and a real replica (two redis-server processes, `--replicaof`).
 */
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisIdempotencyStore } from '../../src/idempotency/redis-idempotency-store.ts';
import type { HeldClaim } from '../../src/idempotency/idempotency-store.ts';
import { createBullmqOutbox } from '../../src/outbox/bullmq-outbox.ts';
import { BULLMQ_PREFIX } from '../../src/outbox/bullmq-worker.ts';
import { DEFAULT_HANDOFF_BACKOFF } from '../../src/outbox/delivery-policy.ts';
import { silentOutboxEvents } from '../../src/outbox/outbox.ts';
import { connectRedis } from '../../src/shared-state/redis-connection.ts';
import { createReplicaAcks, type ReplicatedWriteKind } from '../../src/shared-state/replica-ack.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startTestReplica, type TestReplica } from '../helpers/redis-replica.ts';
import { handoff } from '../outbox/outbox-contract.ts';

let primary: TestRedis;
let replica: TestReplica;
let raw: Redis;
const connections: Redis[] = [];
beforeAll(async () => {
  primary = await startTestRedis();
  replica = await startTestReplica(primary.port);
  raw = new Redis(primary.url);
});
afterAll(async () => {
  for (const client of connections) client.disconnect();
  raw?.disconnect();
  await replica?.stop();
  await primary?.stop();
});

async function connect(): Promise<Redis> {
  const client = connectRedis(primary.url);
  connections.push(client);
  await once(client, 'ready');
  return client;
}

/** Replica acknowledgements that record what they count and log. */
function recordingAcks(replicas: number, timeoutMs = 100) {
  const counted: ReplicatedWriteKind[] = [];
  const warned: Array<{ kind: ReplicatedWriteKind; count: number; reason: string }> = [];
  const acks = createReplicaAcks({ replicas, timeoutMs }, { unreplicated: (kind) => counted.push(kind), warn: (kind, count, reason) => warned.push({ kind, count, reason }) });
  return { acks, counted, warned };
}

async function waitCommandsSent(): Promise<number> {
  const stats = await raw.info('commandstats');
  return Number(/cmdstat_wait:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

const answer = { status: 200, body: '{"response":"kept","message_id":"7"}' };

async function keptAnswer(replicas: number, timeoutMs = 100) {
  const recorded = recordingAcks(replicas, timeoutMs);
  const store = createRedisIdempotencyStore({ client: await connect(), ttlSeconds: 60, claimMs: 5_000, replicaAcks: recorded.acks, keyPrefix: `t:${randomUUID()}:` });
  const claim = (await store.claim('org:key', 'fp')) as HeldClaim;
  expect(claim.outcome).toBe('claimed');
  const started = performance.now();
  await claim.complete(answer);
  return { ...recorded, store, ms: performance.now() - started };
}

describe('a kept Idempotency-Key answer, with a replica wanted', () => {
  it('is on the replica when complete() returns (one WAIT sent after the write)', async () => {
    const sentBefore = await waitCommandsSent();
    const { store, counted } = await keptAnswer(1);
    const keys = await raw.keys('t:*:org:key');
    const onReplica = await replica.client.get(keys.at(-1)!);
    expect(JSON.parse(onReplica!)).toMatchObject({ s: 200, b: answer.body });
    expect(counted).toEqual([]);
    expect(await waitCommandsSent()).toBe(sentBefore + 1);
    // Replayed from it, as without a replica.
    expect(await store.claim('org:key', 'fp')).toEqual({ outcome: 'replay', answer });
  });

  it('when the replica does not answer: kept on the primary, counted and logged, the caller held only the WAIT timeout', async () => {
    replica.pause();
    try {
      const { store, counted, warned, ms } = await keptAnswer(1, 80);
      expect(counted).toEqual(['idempotency']);
      expect(warned).toEqual([{ kind: 'idempotency', count: 1, reason: '0 of 1 replicas acknowledged within 80 ms' }]);
      expect(ms).toBeGreaterThanOrEqual(75);
      expect(ms).toBeLessThan(1_000);
      expect(await store.claim('org:key', 'fp')).toEqual({ outcome: 'replay', answer });
    } finally {
      replica.resume();
    }
  });

  it('with none wanted (a single node), no WAIT is sent even while the replica is stopped', async () => {
    replica.pause();
    try {
      const sentBefore = await waitCommandsSent();
      const { counted, ms } = await keptAnswer(0, 150);
      expect(await waitCommandsSent()).toBe(sentBefore);
      expect(counted).toEqual([]);
      expect(ms).toBeLessThan(150);
    } finally {
      replica.resume();
    }
  });
});

describe('a queued handoff, with a replica wanted', () => {
  const setup = {
    deliver: async () => ({ result: 'delivered' as const }),
    policy: { backoff: DEFAULT_HANDOFF_BACKOFF, maxAgeMs: 60_000 },
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    events: silentOutboxEvents,
  };

  async function enqueueOne(replicas: number, readReplica = true) {
    const recorded = recordingAcks(replicas);
    const queueName = `handoffs-${randomUUID()}`;
    const outbox = createBullmqOutbox({ redis: primary.url, ...setup, queueName, replicaAcks: recorded.acks });
    try {
      const one = handoff();
      for (let i = 0; i < 100 && !(await outbox.ready()); i += 1) await new Promise((r) => setTimeout(r, 50));
      await outbox.enqueue(one);
      const key = `${BULLMQ_PREFIX}:${queueName}:${one.handoff_id}`;
      return { ...recorded, onPrimary: await raw.exists(key), onReplica: readReplica ? await replica.client.exists(key) : undefined };
    } finally {
      await outbox.close();
    }
  }

  it('is on the replica, under the hash-tagged prefix, when enqueue() returns', async () => {
    const { onReplica, counted } = await enqueueOne(1);
    expect(onReplica).toBe(1);
    expect(counted).toEqual([]);
  });

  it('when the replica does not answer, is still queued and counted', async () => {
    replica.pause();
    try {
      const { onPrimary, counted } = await enqueueOne(1, false);
      expect(onPrimary).toBe(1);
      expect(counted).toEqual(['handoff']);
    } finally {
      replica.resume();
    }
  });
});

describe('the log of unreplicated writes', () => {
  it('says at most once a minute how many writes went unacknowledged since it last spoke', () => {
    let now = 0;
    const warned: number[] = [];
    const acks = createReplicaAcks({ replicas: 1, timeoutMs: 50 }, { unreplicated() {}, warn: (_kind, count) => warned.push(count) }, () => now);
    const short: Array<[Error | null, unknown]> = [[null, 1], [null, 0]];
    for (let i = 0; i < 5; i += 1) acks.settle(short, 'handoff');
    now = 59_999;
    acks.settle(short, 'handoff');
    expect(warned).toEqual([1]);
    now = 60_000;
    acks.settle(short, 'handoff');
    acks.settle([[null, 1], [null, 1]], 'handoff');
    expect(warned).toEqual([1, 6]);
  });
});

describe('a primary left without its replica (right after a failover)', () => {
  it('is not sent WAIT for a while after one came back short: those writes are counted, and one WAIT later finds out whether the replica is back', () => {
    let now = 0;
    const counted: ReplicatedWriteKind[] = [];
    const acks = createReplicaAcks({ replicas: 1, timeoutMs: 50 }, { unreplicated: (kind) => counted.push(kind), warn() {} }, () => now);
    expect(acks.wanted('idempotency')).toBe(true);
    acks.settle([[null, 'OK'], [null, 0]], 'idempotency'); // no replica acknowledged
    expect(counted).toEqual(['idempotency']);
    now = 4_999;
    expect(acks.wanted('idempotency')).toBe(false); // held no connection for a WAIT bound to time out
    expect(counted).toEqual(['idempotency', 'idempotency']);
    now = 5_000;
    expect(acks.wanted('handoff')).toBe(true);
    acks.settle([[null, 'OK'], [null, 1]], 'handoff');
    expect(acks.wanted('handoff')).toBe(true);
    expect(counted).toHaveLength(2);
  });
});

describe('on a Redis Cluster (a primary per slot range)', () => {
  it('keeps sending WAIT after a short one: one primary without its replica says nothing of the others', () => {
    const acks = createReplicaAcks({ replicas: 1, timeoutMs: 50 }, { unreplicated() {}, warn() {} }, () => 0, false);
    acks.settle([[null, 'OK'], [null, 0]], 'idempotency');
    expect(acks.wanted('idempotency')).toBe(true);
  });
});
