import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionCache } from '../../src/cache/create-session-cache.ts';
import { createRedisCache, type RedisCacheOptions } from '../../src/cache/redis-cache.ts';
import type { CacheEvents } from '../../src/cache/session-cache.ts';
import { describeSessionCacheContract, newKey, turn, type CacheUnderTest } from './session-cache-contract.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';

let redis: TestRedis;
let raw: Redis;
beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
});
afterAll(async () => {
  raw?.disconnect();
  await redis?.stop();
});

async function connected(opts: Partial<RedisCacheOptions> & { ttlSeconds: number }) {
  const errors: CacheUnderTest['errors'] = [];
  const events: CacheEvents = { error: (operation, err) => errors.push({ operation, err }) };
  const cache = createRedisCache({ redis: redis.url, events, ...opts });
  for (let i = 0; i < 100 && !(await cache.ping()); i += 1) await sleep(20);
  return { cache, errors };
}

describeSessionCacheContract('redis', async ({ ttlSeconds }) => ({
  ...(await connected({ ttlSeconds })),
  elapse: (ms) => sleep(ms),
}));

describe('redis session cache', () => {
  it('lets two service instances share a session and keeps every concurrent turn', async () => {
    const a = await connected({ ttlSeconds: 60 });
    const b = await connected({ ttlSeconds: 60 });
    const key = newKey();
    await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((n) => (n % 2 ? a : b).cache.recordTurn(key, turn(n))));
    for (const reader of [a, b]) {
      const entry = await reader.cache.get(key);
      expect(entry?.answers.map((x) => x.question).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `question ${n}`));
      const messages = entry?.messages.map((m) => m.content) ?? [];
      expect(messages).toHaveLength(8);
      for (let i = 0; i < 8; i += 2) expect(messages[i + 1]).toBe(messages[i]?.replace('question', 'answer'));
    }
    expect([...a.errors, ...b.errors]).toEqual([]);
    await Promise.all([a.cache.close(), b.cache.close()]);
  });

  it('stores each session under keys that expire with the configured time to live', async () => {
    const keyPrefix = `ttl-check-${Date.now()}:`;
    const { cache } = await connected({ ttlSeconds: 7200, keyPrefix });
    await cache.recordTurn(newKey(), turn(1));
    const keys = await raw.keys(`${keyPrefix}*`);
    expect(keys).toHaveLength(3);
    for (const k of keys) {
      const ttl = await raw.pttl(k);
      expect(ttl).toBeGreaterThan(7_100_000);
      expect(ttl).toBeLessThanOrEqual(7_200_000);
    }
    await cache.close();
  });

  it('reads damaged session data as a miss and reports it', async () => {
    const keyPrefix = `damaged-${Date.now()}:`;
    const { cache, errors } = await connected({ ttlSeconds: 60, keyPrefix });
    const key = newKey();
    await cache.recordTurn(key, turn(1));
    const [messagesKey] = await raw.keys(`${keyPrefix}*:messages`);
    await raw.rpush(messagesKey!, '{not json');
    expect(await cache.get(key)).toBeUndefined();
    expect(errors.map((e) => e.operation)).toEqual(['get']);
    await cache.close();
  });

  it('gives up on a Redis that does not answer within the command timeout', async () => {
    const { cache, errors } = await connected({ ttlSeconds: 60, commandTimeoutMs: 100 });
    const key = newKey();
    await cache.recordTurn(key, turn(1));
    await raw.call('CLIENT', 'PAUSE', '1500', 'ALL');
    const started = performance.now();
    const [entry] = await Promise.all([cache.get(key), cache.recordTurn(key, turn(2))]);
    expect(performance.now() - started).toBeLessThan(1000); // well before the pause ends
    expect(entry).toBeUndefined();
    expect(errors.map((e) => e.operation).sort()).toEqual(['get', 'recordTurn']);
    await raw.ping(); // answered once the pause is over, so later tests see a normal Redis
    await cache.close();
  });

  it('is chosen by createSessionCache when a Redis URL is configured: a turn recorded there is in Redis', async () => {
    const cache = await createSessionCache({ redis: redis.url, maxSessions: 10 });
    for (let i = 0; i < 100 && !(await cache.ping()); i += 1) await sleep(20);
    const key = newKey();
    await cache.recordTurn(key, turn(1));
    const other = await connected({ ttlSeconds: 60 });
    expect((await other.cache.get(key))?.answers).toHaveLength(1);
    await Promise.all([cache.close(), other.cache.close()]);
  });
});
