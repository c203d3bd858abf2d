import { describe, expect, it } from 'vitest';
import { heapBytes } from '../../src/cache/heap-bytes.ts';
import { createMemoryCache } from '../../src/cache/memory-cache.ts';
import { STORED_TEXT_MAX_UNITS, type Turn } from '../../src/cache/session-cache.ts';
import type { HeldClaim } from '../../src/idempotency/idempotency-store.ts';
import { createMemoryIdempotencyStore } from '../../src/idempotency/memory-idempotency-store.ts';
import { newKey, reply } from './session-cache-contract.ts';

// The longest valid message: 4000 characters, each an emoji (two UTF-16 code units, 16 KB of heap).
const EMOJI_MESSAGE = '😀'.repeat(4000);
const MIB = 1024 * 1024;

const emojiTurn = (n: number): Turn => ({ question: `${n} ${EMOJI_MESSAGE}`, answer: `${n} ${EMOJI_MESSAGE}`, reply: reply(`${n} ${EMOJI_MESSAGE}`), language: 'en' });

describe('the in-process session cache is bounded in bytes', () => {
  it('never holds more than maxBytes of maximum-length emoji sessions, and keeps the newest', async () => {
    const cache = createMemoryCache({ maxSessions: 20_000, maxBytes: 2 * MIB, ttlSeconds: 7200 });
    const keys = Array.from({ length: 60 }, () => newKey());
    for (const key of keys) {
      for (let n = 0; n < 8; n += 1) await cache.recordTurn(key, emojiTurn(n));
      expect(cache.heldBytes()).toBeLessThanOrEqual(2 * MIB);
    }
    // Far fewer than the 20,000 sessions the count bound allows, and what is held is what is counted.
    const held = cache.countSessions();
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThan(60);
    const newest = await cache.get(keys.at(-1)!);
    expect(newest?.messages).toHaveLength(8);
    let counted = 0;
    for (const key of keys) {
      const entry = await cache.get(key);
      if (entry !== undefined) counted += heapBytes(entry);
    }
    expect(counted).toBeLessThanOrEqual(cache.heldBytes());
  });

  it('counts emoji text at two bytes per code unit, not one per character', async () => {
    const cache = createMemoryCache({ maxSessions: 100, maxBytes: 10 * MIB, ttlSeconds: 7200 });
    await cache.recordTurn(newKey(), { question: EMOJI_MESSAGE, answer: 'ok', reply: reply('ok'), language: 'en' });
    // The question is kept twice (history and the reusable answer): 2 x 16,000 bytes at least.
    expect(cache.heldBytes()).toBeGreaterThan(2 * 2 * EMOJI_MESSAGE.length);
  });

  it(`cuts each stored message at ${STORED_TEXT_MAX_UNITS} code units without splitting an emoji`, async () => {
    const cache = createMemoryCache({ maxSessions: 100, maxBytes: 10 * MIB, ttlSeconds: 7200 });
    const key = newKey();
    const longAnswer = `x${'😀'.repeat(10_000)}`; // the pair would straddle the cut
    await cache.recordTurn(key, { question: 'Tell me about the area', answer: longAnswer, reply: reply('short'), language: 'en' });
    const stored = (await cache.get(key))!.messages[1]!.content;
    expect(stored.length).toBe(STORED_TEXT_MAX_UNITS - 1);
    expect(longAnswer.startsWith(stored)).toBe(true);
    expect(/[\uD800-\uDBFF]$/.test(stored)).toBe(false);
    expect((await cache.get(key))!.messages[0]!.content).toBe('Tell me about the area');
  });

  it('keeps an ordinary reply for reuse, not one whose engine answer is huge', async () => {
    const cache = createMemoryCache({ maxSessions: 100, maxBytes: 10 * MIB, ttlSeconds: 7200 });
    const key = newKey();
    await cache.recordTurn(key, { question: 'Is there a pool?', answer: 'Yes.', reply: reply('Yes, there is a pool.'), language: 'en' });
    await cache.recordTurn(key, { question: 'Is there a gym?', answer: 'Yes.', reply: { ...reply('Yes.'), context: '😀'.repeat(50_000) }, language: 'en' });
    const entry = (await cache.get(key))!;
    expect(entry.answers.map((a) => a.question)).toEqual(['Is there a pool?']);
    expect(entry.messages.map((m) => m.content)).toEqual(['Is there a pool?', 'Yes.', 'Is there a gym?', 'Yes.']);
  });

  it('rejects a byte bound that cannot work', () => {
    expect(() => createMemoryCache({ maxSessions: 10, maxBytes: 0, ttlSeconds: 10 })).toThrow(RangeError);
  });
});

describe('kept idempotent answers are bounded in bytes', () => {
  it('counts an emoji answer at two bytes per code unit, so the bound holds in heap', async () => {
    const maxBytes = MIB;
    const store = createMemoryIdempotencyStore({ ttlSeconds: 600, claimMs: 1000, maxKeys: 20_000, maxBytes });
    const body = JSON.stringify({ response: '😀'.repeat(10_000) }); // 20,000+ code units: 40 KB of heap
    const scopes = Array.from({ length: 100 }, (_, i) => `org:${i}`);
    for (const scope of scopes) await ((await store.claim(scope, 'fp')) as HeldClaim).complete({ status: 200, body });
    let kept = 0;
    for (const scope of scopes) if ((await store.claim(scope, 'fp')).outcome === 'replay') kept += 1;
    expect(kept).toBeGreaterThan(0);
    expect(kept * 2 * body.length).toBeLessThanOrEqual(maxBytes);
  });
});
