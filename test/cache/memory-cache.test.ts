import { describe, expect, it } from 'vitest';
import { createSessionCache } from '../../src/cache/create-session-cache.ts';
import { createMemoryCache } from '../../src/cache/memory-cache.ts';
import type { CacheEvents } from '../../src/cache/session-cache.ts';
import { describeSessionCacheContract, newKey, turn, type CacheUnderTest } from './session-cache-contract.ts';

function memoryUnderTest(opts: { ttlSeconds: number; maxSessions?: number }): CacheUnderTest & {
  cache: ReturnType<typeof createMemoryCache>;
} {
  let clock = Date.now();
  const errors: CacheUnderTest['errors'] = [];
  const events: CacheEvents = { error: (operation, err) => errors.push({ operation, err }) };
  const cache = createMemoryCache({ maxSessions: opts.maxSessions ?? 1000, ttlSeconds: opts.ttlSeconds, now: () => clock, events });
  return {
    cache,
    errors,
    async elapse(ms) {
      clock += ms;
    },
  };
}

describeSessionCacheContract('memory', async (opts) => memoryUnderTest(opts));

describe('memory session cache bound', () => {
  it.each([1, 2, 7, 10, 50])('holds at most maxSessions=%i sessions and drops the oldest first', async (max) => {
    const { cache } = memoryUnderTest({ ttlSeconds: 7200, maxSessions: max });
    const keys = Array.from({ length: 3 * max }, () => newKey());
    for (const [n, key] of keys.entries()) {
      await cache.recordTurn(key, turn(n));
      expect(cache.countSessions()).toBeLessThanOrEqual(max);
    }
    // Newest first: a read counts as use and may move a session, so read the ones expected to survive first.
    const present: number[] = [];
    for (let n = keys.length - 1; n >= 0; n -= 1) if (await cache.get(keys[n]!)) present.push(n);
    expect(present.length).toBeLessThanOrEqual(max);
    expect(present.length).toBeGreaterThanOrEqual(Math.ceil(max / 2));
    expect(present).toEqual(present.map((_, i) => keys.length - 1 - i)); // exactly the newest ones
  });

  it('keeps a session that is in use while newer ones push idle ones out', async () => {
    const { cache } = memoryUnderTest({ ttlSeconds: 7200, maxSessions: 10 });
    const active = newKey();
    await cache.recordTurn(active, turn(0));
    for (let n = 1; n <= 100; n += 1) {
      await cache.recordTurn(newKey(), turn(n));
      if (n % 3 === 0) expect(await cache.get(active)).toBeDefined();
    }
  });

  it('does not count or return expired sessions', async () => {
    const under = memoryUnderTest({ ttlSeconds: 60, maxSessions: 100 });
    await under.cache.recordTurn(newKey(), turn(1));
    const late = newKey();
    await under.elapse(30_000);
    await under.cache.recordTurn(late, turn(2));
    await under.elapse(30_000);
    expect(under.cache.countSessions()).toBe(1);
    expect(await under.cache.get(late)).toBeDefined();
  });

  it('rejects a bound or time to live that cannot work', () => {
    expect(() => createMemoryCache({ maxSessions: 0, ttlSeconds: 10 })).toThrow(RangeError);
    expect(() => createMemoryCache({ maxSessions: 10, ttlSeconds: 0 })).toThrow(RangeError);
  });
});

describe('createSessionCache', () => {
  it('uses an in-process cache of its own when no Redis URL is configured', async () => {
    for (const redisUrl of [undefined, '']) {
      const cache = await createSessionCache({ redis: redisUrl, maxSessions: 10 });
      const elsewhere = await createSessionCache({ redis: redisUrl, maxSessions: 10 });
      const key = newKey();
      await cache.recordTurn(key, turn(1));
      expect((await cache.get(key))?.answers).toHaveLength(1);
      expect(await elsewhere.get(key)).toBeUndefined(); // nothing shared: another process would not see it either
      await Promise.all([cache.close(), elsewhere.close()]);
    }
  });
});
