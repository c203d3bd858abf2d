import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotencyStore } from '../../src/idempotency/create-idempotency-store.ts';
import type { HeldClaim } from '../../src/idempotency/idempotency-store.ts';
import { createRedisIdempotencyStore } from '../../src/idempotency/redis-idempotency-store.ts';
import { connectRedis } from '../../src/shared-state/redis-connection.ts';
import { freePort, startTestRedis, type TestRedis } from '../helpers/redis-server.ts';

let redis: TestRedis;
const connections: Redis[] = [];
const connect = async (url = redis.url, ready = true) => {
  const client = connectRedis(url);
  connections.push(client);
  if (ready) await once(client, 'ready');
  return client;
};
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(async () => {
  for (const client of connections) client.disconnect();
  await redis?.stop();
});

let n = 0;
const newScope = () => `scope-${(n += 1)}`;
const answer = { status: 200, body: '{"response":"kept","message_id":"7"}' };

describe('the Redis idempotency store, shared by two instances', () => {
  it('one claim wins; the other instance sees it in flight, then replays the kept answer', async () => {
    const one = createRedisIdempotencyStore({ client: await connect(), ttlSeconds: 60, claimMs: 5000 });
    const two = createRedisIdempotencyStore({ client: await connect(), ttlSeconds: 60, claimMs: 5000 });
    const scope = newScope();
    const claims = await Promise.all([one.claim(scope, 'fp'), two.claim(scope, 'fp')]);
    expect(claims.map((c) => c.outcome).sort()).toEqual(['claimed', 'in_flight']);
    expect((await two.claim(scope, 'other')).outcome).toBe('mismatch');
    await (claims.find((c) => c.outcome === 'claimed') as HeldClaim).complete(answer);
    expect(await two.claim(scope, 'fp')).toEqual({ outcome: 'replay', answer });
    expect(await one.claim(scope, 'fp')).toEqual({ outcome: 'replay', answer });
    expect((await one.claim(scope, 'other')).outcome).toBe('mismatch');
  });

  it('a released claim lets a retry on another instance run again', async () => {
    const one = createRedisIdempotencyStore({ client: await connect(), ttlSeconds: 60, claimMs: 5000 });
    const two = createRedisIdempotencyStore({ client: await connect(), ttlSeconds: 60, claimMs: 5000 });
    const scope = newScope();
    await ((await one.claim(scope, 'fp')) as HeldClaim).release();
    expect((await two.claim(scope, 'fp')).outcome).toBe('claimed');
  });

  it('the claim of an instance that died expires after the claim time; its late answer never overwrites the new holder', async () => {
    const dead = createRedisIdempotencyStore({ client: await connect(), ttlSeconds: 60, claimMs: 200 });
    const alive = createRedisIdempotencyStore({ client: await connect(), ttlSeconds: 60, claimMs: 5000 });
    const scope = newScope();
    const lost = (await dead.claim(scope, 'fp')) as HeldClaim;
    expect((await alive.claim(scope, 'fp')).outcome).toBe('in_flight');
    await sleep(300);
    const taken = (await alive.claim(scope, 'fp')) as HeldClaim;
    expect(taken.outcome).toBe('claimed');
    await lost.complete({ status: 200, body: 'late' });
    await lost.release();
    expect((await alive.claim(scope, 'fp')).outcome).toBe('in_flight');
    await taken.complete(answer);
    expect(await alive.claim(scope, 'fp')).toEqual({ outcome: 'replay', answer });
  });

  it('keeps an answer for the TTL only', async () => {
    const store = createRedisIdempotencyStore({ client: await connect(), ttlSeconds: 1, claimMs: 5000 });
    const scope = newScope();
    await ((await store.claim(scope, 'fp')) as HeldClaim).complete(answer);
    expect((await store.claim(scope, 'fp')).outcome).toBe('replay');
    await sleep(1_100);
    expect((await store.claim(scope, 'fp')).outcome).toBe('claimed');
  });
});

describe('when Redis cannot be reached', () => {
  it('the in-process store serves the request, and the fallback is reported', async () => {
    const fallbacks: string[] = [];
    const store = createIdempotencyStore({
      redis: await connect(`redis://127.0.0.1:${await freePort()}`, false),
      ttlSeconds: 60,
      requestTimeoutMs: 1000,
      events: { fallback: (operation) => fallbacks.push(operation) },
    });
    const scope = newScope();
    const claim = (await store.claim(scope, 'fp')) as HeldClaim;
    expect(claim.outcome).toBe('claimed');
    expect((await store.claim(scope, 'fp')).outcome).toBe('in_flight');
    await claim.complete(answer);
    expect(await store.claim(scope, 'fp')).toEqual({ outcome: 'replay', answer });
    // Every Redis call it could not make is reported: the claims, and the settling it tries again once Redis answers.
    expect([...fallbacks].sort()).toEqual(['claim', 'claim', 'claim', 'complete', 'release']);
    expect(store.local.inFlight).toBe(0);
  });
});
