import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisCache } from '../../src/cache/redis-cache.ts';
import type { CacheEvents, SessionCache } from '../../src/cache/session-cache.ts';
import { newKey, turn } from './session-cache-contract.ts';
import { freePort, startTestRedis, type TestRedis } from '../helpers/redis-server.ts';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.stop();
});

function recording() {
  const operations: string[] = [];
  const events: CacheEvents = { error: (operation) => operations.push(operation) };
  return { operations, events };
}

async function untilReady(cache: SessionCache, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (await cache.ping()) return true;
  return false;
}

/** Runs `work` and returns its result with how long it took, in ms. */
async function timed<T>(work: Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work;
  return [result, performance.now() - started];
}

describe('redis session cache when Redis goes away', () => {
  it('misses fast while Redis is down, reports it, and works again once Redis is back', async () => {
    const { operations, events } = recording();
    const cache = createRedisCache({ redis: redis.url, ttlSeconds: 60, events });
    expect(await untilReady(cache, 3000)).toBe(true);
    const key = newKey();
    await cache.recordTurn(key, turn(1));
    expect((await cache.get(key))?.answers).toHaveLength(1);

    await redis.stop();
    const [entry, getMs] = await timed(cache.get(key));
    const [, writeMs] = await timed(cache.recordTurn(key, turn(2)));
    expect(entry).toBeUndefined();
    expect(getMs).toBeLessThan(1000);
    expect(writeMs).toBeLessThan(1000);
    expect(operations).toEqual(expect.arrayContaining(['get', 'recordTurn']));

    await redis.start();
    expect(await untilReady(cache, 5000)).toBe(true);
    await cache.recordTurn(key, turn(3)); // the old data went with the old process (no persistence)
    expect((await cache.get(key))?.messages.map((m) => m.content)).toEqual(['question 3', 'answer 3']);
    await cache.close();
  });

  it('never hangs and never throws when Redis was never reachable', async () => {
    const { operations, events } = recording();
    const cache = createRedisCache({ redis: `redis://127.0.0.1:${await freePort()}`, ttlSeconds: 60, events });
    const [entry, getMs] = await timed(cache.get(newKey()));
    const [, writeMs] = await timed(cache.recordTurn(newKey(), turn(1)));
    expect(entry).toBeUndefined();
    expect(getMs + writeMs).toBeLessThan(1000);
    expect(await cache.ping()).toBe(false);
    await sleep(300); // let a few reconnect attempts fail: the outage is reported once, not per attempt
    expect(operations.filter((op) => op === 'connection')).toHaveLength(1);
    expect(operations).toEqual(expect.arrayContaining(['get', 'recordTurn']));
    const [, closeMs] = await timed(cache.close());
    expect(closeMs).toBeLessThan(1000);
  });
});
