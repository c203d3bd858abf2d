/** docs/operations.md#open-files: MAX_CONNECTIONS and the party pools are fitted under the open-files limit. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { descriptorBudget, openFilesSoftLimit, RESERVED_DESCRIPTORS } from '../../src/runtime/descriptor-budget.ts';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            256                  1048576              files
Max locked memory         8388608              8388608              bytes
`;

describe('openFilesSoftLimit', () => {
  it('reads the soft limit of /proc/self/limits', () => {
    expect(openFilesSoftLimit(() => LIMITS)).toBe(256);
  });
  it('is unknown when unlimited or unreadable (another system)', () => {
    expect(openFilesSoftLimit(() => LIMITS.replace('256   ', 'unlimited'))).toBeUndefined();
    expect(openFilesSoftLimit(() => {
      throw new Error('ENOENT');
    })).toBeUndefined();
  });
  it('reads this process\'s real limit on Linux', () => {
    if (process.platform !== 'linux') return;
    expect(openFilesSoftLimit()).toBeGreaterThan(0);
  });
});

describe('descriptorBudget', () => {
  it('leaves the ceilings alone when everything fits', () => {
    expect(descriptorBudget(65_536, 10_000, 128)).toEqual({ maxConnections: 10_000, poolConnections: 128, lowered: [] });
    expect(descriptorBudget(undefined, 10_000, 128).lowered).toEqual([]);
  });
  it('under `ulimit -n 256` keeps half of what is left for clients and half for the five pools', () => {
    expect(descriptorBudget(256, 10_000, 128)).toEqual({
      maxConnections: 96,
      poolConnections: 19,
      lowered: ['MAX_CONNECTIONS 10000 -> 96', 'connections per party pool 128 -> 19'],
    });
  });
  it('never gives out more descriptors than the limit has, and never less than one of each', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200_000 }), fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 256 }), (limit, max, pool) => {
        const budget = descriptorBudget(limit, max, pool);
        expect(budget.maxConnections).toBeGreaterThanOrEqual(1);
        expect(budget.poolConnections).toBeGreaterThanOrEqual(1);
        expect(budget.maxConnections).toBeLessThanOrEqual(max);
        expect(budget.poolConnections).toBeLessThanOrEqual(pool);
        // Below the reserve plus one of each nothing fits anyway; above it, everything does.
        if (limit >= RESERVED_DESCRIPTORS + 12) expect(budget.maxConnections + 5 * budget.poolConnections + RESERVED_DESCRIPTORS).toBeLessThanOrEqual(limit);
      }),
    );
  });
});
