/** The in-process rate windows: fixed windows counted narrowest first, counts given back, a bounded number kept. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inProcessWindowCounter } from '../../src/http/rate-limit-store.ts';

describe('in-process rate windows', () => {
  it('counts up to the limit, stops counting the next windows at the first refusal, and gives counts back', () => {
    const counter = inProcessWindowCounter();
    const windows = [{ key: 'session:a', max: 2 }, { key: 'org:1', max: 10 }];
    expect(counter.count(windows, 60_000).map((c) => c.current)).toEqual([1, 1]);
    expect(counter.count(windows, 60_000).map((c) => c.current)).toEqual([2, 2]);
    expect(counter.count(windows, 60_000).map((c) => c.current)).toEqual([3]); // refused by the session: the organisation not counted
    counter.uncount(windows);
    expect(counter.count([{ key: 'org:1', max: 10 }], 60_000)[0]?.current).toBe(2);
  });

  it('never keeps more than its bound of windows, whatever keys callers send (a word like __proto__ included)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor')), { maxLength: 200 }), (keys) => {
        const counter = inProcessWindowCounter(16);
        for (const key of keys) counter.count([{ key, max: 5 }], 60_000);
        // The last key counted is still there; its count is its own occurrences, never another key's.
        const last = keys.at(-1);
        if (last === undefined) return;
        const mine = keys.filter((k) => k === last).length;
        expect(counter.count([{ key: last, max: 1_000 }], 60_000)[0]!.current).toBeLessThanOrEqual(mine + 1);
      }),
    );
  });

  it('a window ends after its length and the next chat starts a new one', async () => {
    const counter = inProcessWindowCounter();
    const window = [{ key: 'client-ip:127.0.0.1', max: 1 }];
    expect(counter.count(window, 50)[0]?.current).toBe(1);
    expect(counter.count(window, 50)[0]?.current).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 70));
    expect(counter.count(window, 50)[0]).toMatchObject({ current: 1, max: 1 });
  });
});
