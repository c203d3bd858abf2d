/**
 * The stream log (docs/api.md#resuming-a-streamed-reply), in process and on a real redis-server:
 * a follower gets every part written so far, then the live ones, then the end; `afterId` resumes
 * after a part; a turn stays findable a minute after its end; followers per turn are bounded;
 * progress parts give way to the reply's parts past the ceiling; a stop reaches the producer;
 * and (Redis) a producer that dies leaves its followers the parts so far and an interruption.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStreamLog } from '../../src/streams/memory-stream-log.ts';
import { BATCH_MS, createRedisStreamLog, LEASE_MS, STREAM_WRITE } from '../../src/streams/redis-stream-log.ts';
import {
  RESUMERS_PER_TURN, TRANSIENT_KEPT_BELOW_BYTES, TURN_MAX_BYTES,
  type FollowItem, type Follower, type StreamLog, type TurnIdentity,
} from '../../src/streams/stream-log.ts';
import { connectRedis } from '../../src/shared-state/redis-connection.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';

let n = 0;
const conversation = () => `10000000000000${String((n += 1)).padStart(5, '0')}`;
const turn = (messageId = `m-${n}:answer`): TurnIdentity => ({ messageId, scope: { orgId: '1234567890123456789', propertyId: '9876543210987654321', sessionId: 'fake_service_session_id' } });
const part = (i: number) => JSON.stringify({ type: 'text-delta', id: 'reply', delta: `word${i} ` });

/** Every item until the end or an interruption (or `ms` pass: then the test fails). */
async function drain(follower: Follower, ms = 10_000): Promise<FollowItem[]> {
  const items: FollowItem[] = [];
  const timer = sleep(ms).then(() => 'timeout' as const);
  const it = follower[Symbol.asyncIterator]();
  for (;;) {
    const next = await Promise.race([it.next(), timer]);
    if (next === 'timeout') throw new Error(`no end within ${ms} ms after ${items.length} items`);
    if (next.done === true) return items;
    items.push(next.value);
    if (next.value.kind !== 'part') return items;
  }
}
const ids = (items: FollowItem[]) => items.flatMap((i) => (i.kind === 'part' ? [i.id] : []));

function contract(name: string, logs: () => { one: StreamLog; two: StreamLog }) {
  describe(`${name}: the stream log`, () => {
    it('replays the parts so far, follows the live ones and ends with the end', async () => {
      const { one, two } = logs();
      const c = conversation();
      const w = one.open(c, turn());
      for (let i = 1; i <= 3; i++) w.append(i, part(i), false);
      await sleep(150);
      const found = await two.find(c);
      expect(found).toMatchObject({ messageId: `m-${n}:answer`, ended: undefined, scope: { orgId: '1234567890123456789' } });
      const follower = found!.follow(0)!;
      const all = drain(follower);
      await sleep(100);
      for (let i = 4; i <= 5; i++) w.append(i, part(i), false);
      await w.end('finished');
      const items = await all;
      expect(ids(items)).toEqual([1, 2, 3, 4, 5]);
      expect(items[0]).toEqual({ kind: 'part', id: 1, json: part(1) });
      expect(items.at(-1)).toEqual({ kind: 'end', end: 'finished' });
    });

    it('resumes after the part a caller already has, and keeps an ended turn whole', async () => {
      const { one, two } = logs();
      const c = conversation();
      const w = one.open(c, turn());
      for (let i = 1; i <= 6; i++) w.append(i, part(i), false);
      await w.end('aborted');
      const found = await two.find(c);
      expect(found?.ended).toBe('aborted');
      expect(ids(await drain(found!.follow(4)!))).toEqual([5, 6]);
      expect(ids(await drain(found!.follow(0)!))).toEqual([1, 2, 3, 4, 5, 6]);
    });

    it('knows nothing of a conversation that never streamed; a newer turn replaces the older one', async () => {
      const { one, two } = logs();
      expect(await two.find(conversation())).toBeUndefined();
      const c = conversation();
      await one.open(c, turn('first:answer')).end('finished');
      one.open(c, turn('second:answer')).append(1, part(1), false);
      await sleep(150);
      expect((await two.find(c))?.messageId).toBe('second:answer');
    });

    it(`lets at most ${RESUMERS_PER_TURN} followers read one turn at once; a closed one frees its place`, async () => {
      const { one, two } = logs();
      const c = conversation();
      one.open(c, turn()).append(1, part(1), false);
      await sleep(150);
      const found = (await two.find(c))!;
      const followers = Array.from({ length: RESUMERS_PER_TURN }, () => found.follow(0));
      expect(followers.every((f) => f !== undefined)).toBe(true);
      expect(found.follow(0)).toBeUndefined();
      followers[0]!.close();
      const again = found.follow(0);
      expect(again).toBeDefined();
      for (const f of [...followers, again]) f?.close();
    });

    it('keeps the reply whole past the ceiling: progress parts are dropped first', async () => {
      const { one, two } = logs();
      const c = conversation();
      const w = one.open(c, turn());
      const progress = JSON.stringify({ type: 'data-step', data: { name: 'x'.repeat(1000), ms: 1 }, transient: true });
      const big = JSON.stringify({ type: 'text-delta', id: 'reply', delta: 'y'.repeat(16 * 1024) });
      let id = 0;
      // Progress parts up to their share, then reply parts up to the ceiling.
      const progressCount = Math.ceil(TRANSIENT_KEPT_BELOW_BYTES / progress.length) + 10;
      for (let i = 0; i < progressCount; i++) w.append(++id, progress, true);
      const lastProgress = id;
      const replyCount = Math.floor((TURN_MAX_BYTES - TRANSIENT_KEPT_BELOW_BYTES) / big.length) - 1;
      for (let i = 0; i < replyCount; i++) w.append(++id, big, false);
      w.append(++id, progress, true);
      await w.end('finished');
      const items = await drain((await two.find(c))!.follow(0)!);
      const kept = ids(items);
      expect(kept.filter((k) => k > lastProgress)).toHaveLength(replyCount);
      expect(kept.filter((k) => k <= lastProgress).length).toBeLessThan(progressCount);
      expect(kept).not.toContain(id);
      expect(items.at(-1)).toEqual({ kind: 'end', end: 'finished' });
    });

    it('tells a follower the reply was cut when a reply part did not fit', async () => {
      const { one, two } = logs();
      const c = conversation();
      const w = one.open(c, turn());
      const big = JSON.stringify({ type: 'text-delta', id: 'reply', delta: 'z'.repeat(TURN_MAX_BYTES / 2) });
      for (let i = 1; i <= 3; i++) w.append(i, big, false);
      await w.end('finished');
      const items = await drain((await two.find(c))!.follow(0)!);
      expect(ids(items)).toEqual([1]);
      expect(items.at(-1)).toEqual({ kind: 'interrupted' });
    });

    it('carries a stop to the producer of the turn, once', async () => {
      const { one, two } = logs();
      const c = conversation();
      const w = one.open(c, turn());
      let stops = 0;
      w.onStop(() => (stops += 1));
      w.append(1, part(1), false);
      await sleep(150);
      const found = (await two.find(c))!;
      await two.requestStop(c, found);
      await two.requestStop(c, found);
      const until = Date.now() + 5_000;
      while (stops === 0 && Date.now() < until) await sleep(20);
      expect(stops).toBe(1);
      await w.end('aborted');
    });
  });
}

contract('in process', () => {
  const log = createMemoryStreamLog();
  return { one: log, two: log };
});

describe('in process: bounded in bytes over all turns', () => {
  it('drops the least recently written ended turns first when over its ceiling', async () => {
    const log = createMemoryStreamLog({ maxBytes: 300_000 });
    const old = conversation();
    const w = log.open(old, turn());
    w.append(1, 'x'.repeat(60_000), false);
    await w.end('finished');
    const live = conversation();
    const lw = log.open(live, turn());
    lw.append(1, 'y'.repeat(60_000), false);
    expect(await log.find(old)).toBeDefined();
    const next = log.open(conversation(), turn());
    next.append(1, 'z'.repeat(60_000), false);
    expect(await log.find(old)).toBeUndefined();
    expect(await log.find(live)).toBeDefined();
  });

  it('forgets an ended turn a minute after its end', async () => {
    let now = 0;
    const log = createMemoryStreamLog({ now: () => now });
    const c = conversation();
    await log.open(c, turn()).end('finished');
    now = 59_000;
    expect(await log.find(c)).toBeDefined();
    now = 61_000;
    expect(await log.find(c)).toBeUndefined();
  });
});

describe('in Redis', () => {
  let redis: TestRedis;
  const clients: Redis[] = [];
  const connect = async () => {
    const client = connectRedis(redis.url);
    clients.push(client);
    await once(client, 'ready');
    return client;
  };
  let one: StreamLog;
  let two: StreamLog;
  beforeAll(async () => {
    redis = await startTestRedis();
    one = createRedisStreamLog(await connect());
    two = createRedisStreamLog(await connect());
  });
  afterAll(async () => {
    for (const c of clients) c.disconnect();
    await redis?.stop();
  });

  contract('Redis, two instances', () => ({ one, two }));

  it('keys one turn under one hash tag, and expires them a minute after the end', async () => {
    const c = conversation();
    const w = one.open(c, turn());
    w.append(1, part(1), false);
    await w.end('finished');
    const probe = await connect();
    const keys = await probe.keys(`*${c}*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key.startsWith(`chat-adapter:{stream:${c}}:`)).toBe(true);
      const ttl = await probe.pttl(key);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
  });

  it('costs the producer one round trip for its start, one per BATCH_MS of parts after it, and a quick turn two in all, when nobody resumes', async () => {
    const client = await connect();
    // Known to Redis already, so that each write is one EVALSHA (not a first EVALSHA and an EVAL).
    await client.script('LOAD', STREAM_WRITE);
    let roundTrips = 0;
    const sendCommand = client.sendCommand.bind(client);
    client.sendCommand = ((command: Parameters<typeof sendCommand>[0], ...rest: unknown[]) => {
      if (command.name === 'evalsha') roundTrips += 1;
      return (sendCommand as (...args: unknown[]) => unknown)(command, ...rest);
    }) as typeof client.sendCommand;
    const producer = createRedisStreamLog(client);

    // A turn that ends within BATCH_MS: its record and start at once, then the other parts with the end.
    const quick = conversation();
    const q = producer.open(quick, turn());
    q.append(1, part(1), false);
    await new Promise((r) => setImmediate(r));
    expect(roundTrips).toBe(1);
    for (let i = 2; i <= 20; i++) q.append(i, part(i), false);
    await q.end('finished');
    expect(roundTrips).toBe(2);
    expect(ids(await drain((await two.find(quick))!.follow(0)!))).toHaveLength(20);

    // The start, then parts written in three windows further apart than BATCH_MS: four round trips, then the end.
    roundTrips = 0;
    const c = conversation();
    const w = producer.open(c, turn());
    w.append(1, part(1), false);
    let id = 1;
    for (let window = 0; window < 3; window++) {
      await sleep(BATCH_MS + 40);
      for (let i = 0; i < 10; i++) w.append(++id, part(id), false);
    }
    await sleep(BATCH_MS + 40);
    expect(roundTrips).toBe(4);
    await w.end('finished');
    expect(roundTrips).toBe(5);
    expect(ids(await drain((await two.find(c))!.follow(0)!))).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
  });

  it('a producer that dies leaves its followers the parts so far and an interruption, never a hang', async () => {
    const producerConnection = await connect();
    const producer = createRedisStreamLog(producerConnection);
    const c = conversation();
    const w = producer.open(c, turn());
    for (let i = 1; i <= 3; i++) w.append(i, part(i), false);
    await sleep(100);
    const follower = (await two.find(c))!.follow(0)!;
    const started = Date.now();
    // The process is gone: nothing more is written, its lease is not renewed.
    producerConnection.disconnect();
    const items = await drain(follower, LEASE_MS + 5_000);
    expect(ids(items)).toEqual([1, 2, 3]);
    expect(items.at(-1)).toEqual({ kind: 'interrupted' });
    expect(Date.now() - started).toBeLessThan(LEASE_MS + 3_000);
  });
});
