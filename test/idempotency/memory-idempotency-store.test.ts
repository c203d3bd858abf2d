import { describe, expect, it } from 'vitest';
import type { HeldClaim } from '../../src/idempotency/idempotency-store.ts';
import { createMemoryIdempotencyStore } from '../../src/idempotency/memory-idempotency-store.ts';

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

const answer = { status: 200, body: '{"response":"hi"}' };

describe('the in-process idempotency store', () => {
  it('claims a new key, answers in_flight for the same request and mismatch for another meanwhile', async () => {
    const store = createMemoryIdempotencyStore({ ttlSeconds: 60, claimMs: 1000, maxKeys: 10 });
    expect((await store.claim('k', 'fp1')).outcome).toBe('claimed');
    expect((await store.claim('k', 'fp1')).outcome).toBe('in_flight');
    expect((await store.claim('k', 'fp2')).outcome).toBe('mismatch');
  });

  it('replays a completed answer to the same request until the TTL passes, then forgets it', async () => {
    const time = clock();
    const store = createMemoryIdempotencyStore({ ttlSeconds: 60, claimMs: 1000, maxKeys: 10, now: time.now });
    await ((await store.claim('k', 'fp1')) as HeldClaim).complete(answer);
    expect(await store.claim('k', 'fp1')).toEqual({ outcome: 'replay', answer });
    expect((await store.claim('k', 'fp2')).outcome).toBe('mismatch');
    expect(store.inFlight).toBe(0);
    time.advance(59_000);
    expect((await store.claim('k', 'fp1')).outcome).toBe('replay');
    time.advance(2_000);
    expect((await store.claim('k', 'fp1')).outcome).toBe('claimed');
  });

  it('a released claim lets the retry run again', async () => {
    const store = createMemoryIdempotencyStore({ ttlSeconds: 60, claimMs: 1000, maxKeys: 10 });
    await ((await store.claim('k', 'fp1')) as HeldClaim).release();
    expect((await store.claim('k', 'fp1')).outcome).toBe('claimed');
  });

  it('a claim whose request never settled stops blocking the key after the claim time', async () => {
    const time = clock();
    const store = createMemoryIdempotencyStore({ ttlSeconds: 60, claimMs: 1000, maxKeys: 10, now: time.now });
    const lost = (await store.claim('k', 'fp1')) as HeldClaim;
    time.advance(1001);
    const again = (await store.claim('k', 'fp1')) as HeldClaim;
    expect(again.outcome).toBe('claimed');
    await lost.release(); // the late release of the lost claim does not free the new holder's
    expect((await store.claim('k', 'fp1')).outcome).toBe('in_flight');
    await again.complete(answer);
    expect(store.inFlight).toBe(0);
  });

  it('is bounded: the oldest kept answers go first', async () => {
    const store = createMemoryIdempotencyStore({ ttlSeconds: 60, claimMs: 1000, maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) await ((await store.claim(key, 'fp')) as HeldClaim).complete(answer);
    expect((await store.claim('a', 'fp')).outcome).toBe('claimed');
    expect((await store.claim('d', 'fp')).outcome).toBe('replay');
  });
});
