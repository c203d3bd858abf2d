/**
 * What the Redis-backed concurrency ceilings must do on every topology (test/fairness/): two
 * instances share each counter, a refusal names its ceiling and leaves no lease behind, and a lease
 * given back frees its place.
 */
import { expect } from 'vitest';
import type { Admission, CeilingCount } from '../../src/fairness/concurrency-ceilings.ts';
import { concurrencyKey, type RedisConcurrency } from '../../src/fairness/redis-concurrency.ts';

/** The admission's release, or a failure naming the ceiling that refused it. */
export const admitted = (admission: Admission): (() => void) => {
  if (!admission.admitted) throw new Error(`refused by ${admission.ceiling}`);
  return admission.release;
};

/** Polls `check` every 50 ms until it holds (a release is not waited for by the chat that gives it). */
export async function until(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Two instances `a` and `b` on the same Redis; `zcard` reads a counter's leases. `org` keeps runs apart. */
export async function expectSharedCounters(a: RedisConcurrency, b: RedisConcurrency, zcard: (key: string) => Promise<number>, org: string): Promise<void> {
  const counts = (clientId: string): CeilingCount[] => [
    { ceiling: 'client', id: clientId, max: 2 },
    { ceiling: 'organisation', id: org, max: 3 },
  ];
  const leases = (ceiling: CeilingCount['ceiling'], id: string) => zcard(concurrencyKey({ ceiling, id }));
  const first = admitted(await a.acquire(counts('key:widget')));
  admitted(await b.acquire(counts('key:widget')));
  expect(await a.acquire(counts('key:widget'))).toEqual({ admitted: false, ceiling: 'client' });
  admitted(await b.acquire(counts('ip:10.0.0.1')));
  expect(await a.acquire(counts('ip:10.0.0.2'))).toEqual({ admitted: false, ceiling: 'organisation' });
  // The refused chat keeps nothing on the client counter it passed.
  await until(async () => (await leases('client', 'ip:10.0.0.2')) === 0);
  first();
  await until(async () => (await leases('client', 'key:widget')) === 1);
  await until(async () => (await leases('organisation', org)) === 2);
  admitted(await a.acquire(counts('key:widget')));
}
