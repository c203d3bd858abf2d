/**
 * withRetries. Equivalent mutant (StrykerJS, `npm run test:mutation -- outbox`), not killable:
 * - `options.deadlineAt !== undefined && ...` -> `true && ...`: without a deadline the comparison
 *   with `undefined` is false anyway, so no retry is ever refused.
 */
import { describe, expect, it } from 'vitest';
import { withRetries, type RetryOptions } from '../../src/clients/retry.ts';

/** A run that fails `failures` times, then answers; records the attempt numbers it saw. */
function flaky(failures: number) {
  const seen: number[] = [];
  const run = async (attempt: number) => {
    seen.push(attempt);
    if (seen.length <= failures) throw new Error(`failure ${seen.length}`);
    return 'ok';
  };
  return { run, seen };
}

/** Records every wait instead of sleeping; the clock moves by the waits. */
function fakeTime(start = 1000) {
  const waits: number[] = [];
  let now = start;
  const options: Pick<RetryOptions, 'sleep' | 'now'> = {
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
    now: () => now,
  };
  return { waits, options };
}

const policy = { attempts: 4, baseMs: 100, capMs: 250 };

describe('withRetries', () => {
  it('retries until success, waiting full-jitter exponential backoff capped at capMs', async () => {
    const { run, seen } = flaky(3);
    const time = fakeTime();
    expect(await withRetries(run, { policy, random: () => 0.5, ...time.options })).toBe('ok');
    expect(seen).toEqual([1, 2, 3, 4]);
    // 0.5 x min(cap, base x 2^(n-1)): 100, 200, 250 (capped).
    expect(time.waits).toEqual([50, 100, 125]);
  });

  it('gives up after `attempts` tries with the last failure, unchanged', async () => {
    const { run, seen } = flaky(10);
    const time = fakeTime();
    await expect(withRetries(run, { policy, random: () => 0, ...time.options })).rejects.toThrow('failure 4');
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(time.waits).toEqual([0, 0, 0]);
  });

  it('waits a random time below the ceiling (full jitter)', async () => {
    const { run } = flaky(1);
    const time = fakeTime();
    await withRetries(run, { policy, random: () => 0.999, ...time.options });
    expect(time.waits).toEqual([99]);
  });

  it('does not retry a failure that is not retryable', async () => {
    const { run, seen } = flaky(10);
    const failures: number[] = [];
    await expect(
      withRetries(run, { policy, retryable: () => false, onFailure: (_err, n) => failures.push(n), ...fakeTime().options }),
    ).rejects.toThrow('failure 1');
    expect(seen).toEqual([1]);
    expect(failures).toEqual([1]);
  });

  it('never waits past the deadline: the last failure is thrown instead of a retry that could not finish', async () => {
    const { run, seen } = flaky(10);
    const time = fakeTime(1000);
    // The first wait (50) ends at 1050 < 1120; the second (100) would end at 1150 >= 1120.
    await expect(withRetries(run, { policy, deadlineAt: 1120, random: () => 0.5, ...time.options })).rejects.toThrow('failure 2');
    expect(seen).toEqual([1, 2]);
    expect(time.waits).toEqual([50]);
  });

  it('refuses a retry whose wait would end exactly at the deadline (no time would be left for the try)', async () => {
    const { run, seen } = flaky(10);
    const time = fakeTime(1000);
    // The first wait (50) would end at 1050: exactly the deadline.
    await expect(withRetries(run, { policy, deadlineAt: 1050, random: () => 0.5, ...time.options })).rejects.toThrow('failure 1');
    expect(seen).toEqual([1]);
    expect(time.waits).toEqual([]);
  });

  it('keeps to the deadline with its default clock (performance.now), as production calls it', async () => {
    const { run, seen } = flaky(10);
    // 30 ms left, and every wait would be about 100 ms: the first failure is final, nothing is waited.
    const started = performance.now();
    await expect(
      withRetries(run, { policy: { attempts: 5, baseMs: 100, capMs: 100 }, random: () => 0.999, deadlineAt: started + 30 }),
    ).rejects.toThrow('failure 1');
    expect(seen).toEqual([1]);
    expect(performance.now() - started).toBeLessThan(90);
  });

  it('tries at least once, whatever the policy says', async () => {
    const { run, seen } = flaky(0);
    expect(await withRetries(run, { policy: { ...policy, attempts: 0 }, ...fakeTime().options })).toBe('ok');
    expect(seen).toEqual([1]);
  });

  it('really sleeps between tries by default', async () => {
    const { run } = flaky(1);
    const started = performance.now();
    await withRetries(run, { policy: { attempts: 2, baseMs: 60, capMs: 60 }, random: () => 0.99 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(50);
  });
});
