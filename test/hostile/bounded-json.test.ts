import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerBoundError, MAX_ANSWER_DEPTH, parseBoundedJson } from '../../src/clients/json-answer.ts';

/*
 * parseBoundedJson skips its walk over the parsed answer when the text shows neither rule can
 * apply. These properties hold it to the rules themselves, whichever way it takes: every answer,
 * nested to any depth, with any member names (the forbidden ones too, written out or escaped).
 */

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype'];

/** The rules, written plainly: the depth of the value (the value itself is level 1)... */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const members = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...members.map(depthOf));
}

/** A member that could reach a prototype: `__proto__`, or `constructor` holding `prototype`. */
const reachesPrototype = (name: string, member: unknown): boolean =>
  name === '__proto__' || (name === 'constructor' && member !== null && typeof member === 'object' && Object.hasOwn(member, 'prototype'));

/** ...and the value without those members. */
function withoutForbidden(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(withoutForbidden);
  const kept: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    if (!reachesPrototype(name, member)) Object.defineProperty(kept, name, { value: withoutForbidden(member), enumerable: true, writable: true, configurable: true });
  }
  return kept;
}

/** `\uXXXX` for every character of a member name, as a party may write it. */
const escapedName = (name: string) => [...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

const memberName = fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 8 }));
const answer = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 40 }, fc.jsonValue({ maxDepth: 1 }), tie('object'), tie('array')),
  object: fc.dictionary(memberName, tie('value'), { maxKeys: 3 }),
  array: fc.array(tie('value'), { maxLength: 3 }),
})).value;

/** A value nested exactly `levels` deep, in objects or arrays. */
const nested = (levels: number, inArrays: boolean): string =>
  inArrays ? `${'['.repeat(levels)}1${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('parseBoundedJson keeps the depth and member rules for every answer', () => {
  it('refuses exactly the answers nested deeper than the limit, and drops exactly the forbidden members', () => {
    fc.assert(
      fc.property(answer, (value) => {
        const text = JSON.stringify(value);
        const parsed = JSON.parse(text) as unknown;
        if (depthOf(parsed) > MAX_ANSWER_DEPTH) {
          expect(() => parseBoundedJson(text)).toThrow(AnswerBoundError);
        } else {
          // Compared as JSON text: an own `constructor` member defeats toStrictEqual's type check,
          // and JSON.stringify writes an own `__proto__` member out like any other.
          expect(JSON.stringify(parseBoundedJson(text))).toBe(JSON.stringify(withoutForbidden(parsed)));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('drops a member that could reach a prototype whose name is written with escapes', () => {
    for (const [name, member] of [['__proto__', '{"polluted":true}'], ['constructor', '{"prototype":{"polluted":true}}']] as const) {
      const parsed = parseBoundedJson(`{"response":"ok","${escapedName(name)}":${member}}`) as object;
      expect(Object.hasOwn(parsed, name), name).toBe(false);
      expect(parsed).toStrictEqual({ response: 'ok' });
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('keeps a member named constructor or prototype that holds plain data, like any other', () => {
    expect(parseBoundedJson('{"constructor":"Acme Builders","prototype":"x"}')).toStrictEqual({ constructor: 'Acme Builders', prototype: 'x' });
  });

  it('counts levels, not brackets: a flat answer with many brackets inside its strings is served', () => {
    const text = JSON.stringify({ response: '{['.repeat(100), items: Array.from({ length: 50 }, (_, i) => ({ i })) });
    expect(parseBoundedJson(text)).toEqual(JSON.parse(text));
  });

  it(`serves ${MAX_ANSWER_DEPTH} levels and refuses ${MAX_ANSWER_DEPTH + 1}, in objects and in arrays`, () => {
    for (const inArrays of [false, true]) {
      expect(() => parseBoundedJson(nested(MAX_ANSWER_DEPTH, inArrays))).not.toThrow();
      expect(() => parseBoundedJson(nested(MAX_ANSWER_DEPTH + 1, inArrays))).toThrow(AnswerBoundError);
    }
  });
});
