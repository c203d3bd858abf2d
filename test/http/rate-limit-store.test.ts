import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inProcessWindowCounter } from '../../src/http/rate-limit-store.ts';

const MINUTE = 60_000;

describe('the in-process rate-limit counters (fixed windows)', () => {
  it('counts each chat of a window, tells the time left, and starts over when the window ends', () => {
    let now = 1_000_000;
    const { count } = inProcessWindowCounter(() => now);
    const session = [{ key: 'session:a', max: 2 }];
    expect(count(session, MINUTE)).toEqual([{ max: 2, current: 1, ttlMs: MINUTE }]);
    now += 10_000;
    expect(count(session, MINUTE)).toEqual([{ max: 2, current: 2, ttlMs: 50_000 }]);
    now += 49_999;
    expect(count(session, MINUTE)).toEqual([{ max: 2, current: 3, ttlMs: 1 }]);
    now += 1;
    expect(count(session, MINUTE)).toEqual([{ max: 2, current: 1, ttlMs: MINUTE }]);
  });

  it('counts windows narrowest first and stops at the first that refuses', () => {
    const { count } = inProcessWindowCounter(() => 0);
    const windows = [
      { key: 'session:a', max: 1 },
      { key: 'org:o', max: 10 },
    ];
    expect(count(windows, MINUTE).map((c) => c.current)).toEqual([1, 1]);
    expect(count(windows, MINUTE).map((c) => c.current)).toEqual([2]);
    // The refused chat was not counted against the organisation.
    expect(count([{ key: 'org:o', max: 10 }], MINUTE)[0]?.current).toBe(2);
  });

  it('keeps keys apart, a name like __proto__ included, and lets the least recently counted go past its ceiling', () => {
    const { count } = inProcessWindowCounter(() => 0, 2);
    for (const key of ['__proto__', 'constructor']) expect(count([{ key, max: 5 }], MINUTE)[0]?.current).toBe(1);
    expect(count([{ key: '__proto__', max: 5 }], MINUTE)[0]?.current).toBe(2);
    count([{ key: 'third', max: 5 }], MINUTE); // 'constructor' is now the oldest: let go
    expect(count([{ key: 'constructor', max: 5 }], MINUTE)[0]?.current).toBe(1);
    expect(count([{ key: 'third', max: 5 }], MINUTE)[0]?.current).toBe(2);
  });

  it('for any arrival times, counts exactly the chats since the window a key opened', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 * MINUTE }), { minLength: 1, maxLength: 60 }), (gaps) => {
        let now = 0;
        const { count } = inProcessWindowCounter(() => now);
        let opened = -Infinity;
        let expected = 0;
        for (const gap of gaps) {
          now += gap;
          if (now >= opened + MINUTE) {
            opened = now;
            expected = 0;
          }
          expected += 1;
          const [got] = count([{ key: 'k', max: 1_000 }], MINUTE);
          expect(got).toEqual({ max: 1_000, current: expected, ttlMs: opened + MINUTE - now });
        }
      }),
    );
  });

  it('gives back the counts of a chat that did not run, within the window', () => {
    let now = 0;
    const counter = inProcessWindowCounter(() => now);
    const windows = [{ key: 'session:a', max: 2 }, { key: 'org:o', max: 10 }];
    counter.count(windows, MINUTE);
    counter.count(windows, MINUTE);
    counter.uncount(windows);
    expect(counter.count(windows, MINUTE).map((c) => c.current)).toEqual([2, 2]);
    now += MINUTE;
    counter.uncount(windows); // the window ended: a new one starts at 1 with the next chat
    expect(counter.count(windows, MINUTE).map((c) => c.current)).toEqual([1, 1]);
  });
});
