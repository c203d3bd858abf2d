/**
 * The `Idempotency-Key` header as the service reads it: bare or as one quoted string with `\"` and
 * `\\` escapes, 1..255 printable ASCII characters. The decoded key is what scopes a kept answer, so
 * two different headers must never decode to the same key, and a key must survive being quoted.
 *
 * Equivalent mutants (StrykerJS, `npm run test:mutation -- idempotency`), not killable:
 * - `i < headers.length` -> `i <= headers.length` in idempotencyHeaderLines: the one extra read is
 *   `undefined?.toLowerCase()`, which names no header.
 * - `headers[i]?.toLowerCase()` -> `headers[i].toLowerCase()`: inside the bound every name is a string.
 */
import type { IncomingMessage } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER, idempotencyHeaderLines, parseIdempotencyKey } from '../../src/http/idempotency-key-header.ts';

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 255 });
/** The draft's quoted form of a key: backslash and quote escaped, then quoted. */
const quote = (key: string) => `"${key.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
const keyOf = (value: string) => {
  const parsed = parseIdempotencyKey(value);
  return parsed.ok ? parsed.key : undefined;
};

describe('parseIdempotencyKey', () => {
  it.each([
    ['abc', 'abc'],
    ['"abc"', 'abc'],
    ['a b', 'a b'],
    ['a\\b', 'a\\b'],
    ['"a\\"b"', 'a"b'],
    ['"a\\\\b"', 'a\\b'],
    ['" "', ' '],
    ['x'.repeat(255), 'x'.repeat(255)],
    [`"${'x'.repeat(255)}"`, 'x'.repeat(255)],
  ])('reads %j as the key %j', (header, key) => {
    expect(parseIdempotencyKey(header)).toEqual({ ok: true, key });
  });

  it.each([
    ['', 'it is empty'],
    ['""', 'it is empty'],
    ['"', 'a quote is not closed'],
    ['"abc', 'a quote is not closed'],
    ['abc"', 'a quote is not opened'],
    ['a"b', 'a quote is not opened'],
    ['"a"b"', 'one quoted string is allowed'],
    ['"a\\nb"', 'one quoted string is allowed'],
    ['"abc\\"', 'one quoted string is allowed'],
    ['"a" , "b"', 'one quoted string is allowed'],
    ['caf\u00e9', 'control or non-ASCII'],
    ['a\tb', 'control or non-ASCII'],
    ['a\u007fb', 'control or non-ASCII'],
    ['x'.repeat(256), 'it has 256 characters'],
    [`"${'x'.repeat(256)}"`, 'it has 256 characters'],
  ])('refuses %j, saying why (%s)', (header, why) => {
    const parsed = parseIdempotencyKey(header);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem).toContain(why);
    expect(!parsed.ok && parsed.problem).toMatch(/^must be 1\.\.255 printable ASCII characters, bare or as one quoted string \(/);
  });

  it('gives back every printable key it is sent quoted: decode(encode(k)) = k', () => {
    fc.assert(fc.property(printable, (key) => {
        expect(keyOf(quote(key))).toBe(key);
      }), { numRuns: 500 });
  });

  it('gives back every printable key without a quote sent bare, the same as quoted', () => {
    fc.assert(
      fc.property(printable.filter((key) => !key.includes('"')), (key) => {
        expect(keyOf(key)).toBe(key);
        expect(keyOf(quote(key))).toBe(key);
      }),
      { numRuns: 500 },
    );
  });

  it('never decodes two different quoted keys to the same key', () => {
    fc.assert(
      fc.property(printable, printable, (a, b) => {
        fc.pre(a !== b);
        expect(keyOf(quote(a))).not.toBe(keyOf(quote(b)));
      }),
      { numRuns: 500 },
    );
    // The escapes that a careless decoder confuses.
    expect(keyOf('"a\\"b"')).not.toBe(keyOf('"a\\\\b"'));
  });

  it('never accepts a value with a character outside printable ASCII', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ unit: 'grapheme', minLength: 1 }), (head, tail) => {
        const value = `${head}\u0000${tail}`;
        expect(parseIdempotencyKey(value).ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe('idempotencyHeaderLines', () => {
  const request = (rawHeaders: string[]) => ({ rawHeaders }) as unknown as IncomingMessage;

  it('counts the Idempotency-Key lines of a request, whatever their case, and nothing else', () => {
    expect(IDEMPOTENCY_HEADER).toBe('idempotency-key');
    expect(idempotencyHeaderLines(request(['Host', 'x', 'Content-Type', 'application/json']))).toBe(0);
    expect(idempotencyHeaderLines(request(['Idempotency-Key', 'a']))).toBe(1);
    expect(idempotencyHeaderLines(request(['idempotency-key', 'a', 'Host', 'x', 'IDEMPOTENCY-KEY', 'b']))).toBe(2);
    // A value that looks like the name is not a name.
    expect(idempotencyHeaderLines(request(['X-Other', 'idempotency-key']))).toBe(0);
  });
});
