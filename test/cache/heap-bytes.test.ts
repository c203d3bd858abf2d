import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { heapBytes, messageBytes, stringBytes } from '../../src/cache/heap-bytes.ts';

/*
 * The byte estimate the in-process stores are bounded by (docs/api.md#limits). The shortcuts taken
 * on every write (a message sized without a walk) must give the same figure as the walk.
 */

/** The rule, written plainly: strings 2 bytes per unit plus a header, containers a header and a slot per member. */
function reference(value: unknown): number {
  if (typeof value === 'string') return stringBytes(value);
  if (typeof value === 'number') return 16;
  if (value === null || typeof value !== 'object') return 0;
  const members = Array.isArray(value) ? value : Object.values(value);
  return 32 + 16 * members.length + members.reduce((sum: number, member) => sum + reference(member), 0);
}

describe('heapBytes', () => {
  it('follows the rule for every JSON value, nested or not', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(heapBytes(value)).toBe(reference(value));
      }),
      { numRuns: 300 },
    );
  });

  it('counts 2 bytes per UTF-16 unit, so an emoji weighs 4', () => {
    expect(stringBytes('😀') - stringBytes('')).toBe(4);
    expect(heapBytes({ a: '😀😀' }) - heapBytes({ a: '' })).toBe(8);
  });
});

describe('messageBytes', () => {
  it('is heapBytes of the message, for any role and content', () => {
    fc.assert(
      fc.property(fc.constantFrom('user', 'assistant'), fc.string({ unit: 'grapheme', maxLength: 200 }), (role, content) => {
        expect(messageBytes({ role, content })).toBe(heapBytes({ role, content }));
      }),
    );
  });
});
