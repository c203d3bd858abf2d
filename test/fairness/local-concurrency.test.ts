/** In-process concurrency ceilings (src/fairness/local-concurrency.ts): counted, refused, released, expired. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Admission } from '../../src/fairness/concurrency-ceilings.ts';
import { LocalConcurrency } from '../../src/fairness/local-concurrency.ts';

const client = (id: string, max = 2) => ({ ceiling: 'client' as const, id, max });
const org = (id: string, max = 3) => ({ ceiling: 'organisation' as const, id, max });
const released = (admission: Admission) => {
  if (!admission.admitted) throw new Error(`refused by ${admission.ceiling}`);
  return admission.release;
};

describe('LocalConcurrency', () => {
  it('refuses a client at its ceiling, names the ceiling, and lets the next chat in once one is released', () => {
    const ceilings = new LocalConcurrency(60_000);
    const first = released(ceilings.acquire([client('a'), org('o')]));
    released(ceilings.acquire([client('a'), org('o')]));
    expect(ceilings.acquire([client('a'), org('o')])).toEqual({ admitted: false, ceiling: 'client' });
    // Another client of the same organisation still has room, until the organisation is full.
    released(ceilings.acquire([client('b'), org('o')]));
    expect(ceilings.acquire([client('c'), org('o')])).toEqual({ admitted: false, ceiling: 'organisation' });
    first();
    first(); // released once only
    expect(ceilings.inFlight({ ceiling: 'client', id: 'a' })).toBe(1);
    expect(ceilings.acquire([client('a'), org('o')]).admitted).toBe(true);
  });

  it('counts a refused chat on no counter (all or nothing)', () => {
    const ceilings = new LocalConcurrency(60_000);
    released(ceilings.acquire([client('x', 5), org('full', 1)]));
    expect(ceilings.acquire([client('y', 5), org('full', 1)])).toEqual({ admitted: false, ceiling: 'organisation' });
    expect(ceilings.inFlight({ ceiling: 'client', id: 'y' })).toBe(0);
  });

  it('lets a lease that was never given back expire, so a lost release does not shrink a ceiling for good', () => {
    let now = 1_000;
    const ceilings = new LocalConcurrency(5_000, () => now);
    released(ceilings.acquire([client('a', 1)]));
    expect(ceilings.acquire([client('a', 1)]).admitted).toBe(false);
    now += 5_001;
    expect(ceilings.acquire([client('a', 1)]).admitted).toBe(true);
  });

  it('treats any id as data: every word, prototype names included, is its own counter and all are released', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString'), fc.string()), { maxLength: 20 }), (ids) => {
        const ceilings = new LocalConcurrency(60_000);
        const releases = ids.map((id) => released(ceilings.acquire([client(id, 1000), org(id, 1000)])));
        for (const id of new Set(ids)) expect(ceilings.inFlight({ ceiling: 'client', id })).toBe(ids.filter((i) => i === id).length);
        for (const release of releases) release();
        for (const id of ids) expect(ceilings.inFlight({ ceiling: 'organisation', id })).toBe(0);
      }),
    );
  });
});
