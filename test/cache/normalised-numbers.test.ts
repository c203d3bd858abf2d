/**
 * Normalisation must fold only what does not change a question's meaning (case, punctuation,
 * spacing, accents, the way a number is written) and keep every difference that does: two numbers
 * that differ never normalise equal, whatever separators or leading zeros they are written with, and
 * "A2" is not "A3". A wrong fold here reuses the reply to a different question.
 *
 * Equivalent mutants of normalise-text.ts (StrykerJS, `npm run test:mutation -- cache`), not killable:
 * - `decimal[2] ?? ''` and `decimal[1] ?? '0'`: both groups always match when the pattern does.
 * - `/\p{M}+/gu` -> `/\p{M}/gu`: a global replace removes every mark, one at a time or in runs.
 * - `/^\d/` -> `/\d/` on a token: a token is all letters or starts with a digit.
 * - `end > 0` -> `true` or `end >= 0` in dropTrailingZeros: at 0, `charCodeAt(-1)` is NaN, never "0",
 *   so the loop stops there anyway.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalisedTokens } from '../../src/cache/normalise-text.ts';

const norm = (text: string) => normalisedTokens(text).join(' ');

/** An integer written as visitors write it: plain, with thousands separators, with leading zeros. */
function written(value: bigint, style: 'plain' | 'comma' | 'point' | 'zeros'): string {
  const digits = value.toString();
  if (style === 'zeros') return `00${digits}`;
  if (style === 'plain' || digits.length <= 3) return digits;
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  return groups.join(style === 'comma' ? ',' : '.');
}

const integer = fc.bigInt({ min: 0n, max: 10n ** 20n });
const style = fc.constantFrom('plain', 'comma', 'point', 'zeros') as fc.Arbitrary<'plain' | 'comma' | 'point' | 'zeros'>;
/** A decimal with one or two fraction digits (three would read as a thousands group). */
const decimal = fc.tuple(fc.nat({ max: 100_000 }), fc.integer({ min: 1, max: 99 }), fc.boolean());

describe('numbers in normalised text', () => {
  it('the same integer normalises the same however it is written', () => {
    fc.assert(
      fc.property(integer, style, style, (value, a, b) => {
        expect(norm(`rent $${written(value, a)} a month`)).toBe(norm(`rent $${written(value, b)} a month`));
      }),
      { numRuns: 300 },
    );
  });

  it('two different integers never normalise equal, however each is written', () => {
    fc.assert(
      fc.property(integer, integer, style, style, (x, y, a, b) => {
        fc.pre(x !== y);
        expect(norm(`unit ${written(x, a)} rent`)).not.toBe(norm(`unit ${written(y, b)} rent`));
      }),
      { numRuns: 500 },
    );
  });

  it('two different decimals never normalise equal; trailing zeros and a decimal comma do not matter', () => {
    const text = ([whole, fraction, comma]: [number, number, boolean]) => `${whole}${comma ? ',' : '.'}${String(fraction).padStart(2, '0')}`;
    const value = ([whole, fraction]: [number, number, boolean]) => whole * 100 + fraction;
    fc.assert(
      fc.property(decimal, decimal, (x, y) => {
        const same = value(x) === value(y);
        expect(norm(`${text(x)} baths`) === norm(`${text(y)} baths`)).toBe(same);
      }),
      { numRuns: 500 },
    );
    expect(norm('1.50 baths')).toBe(norm('1,5 baths'));
    expect(norm('1.05 baths')).not.toBe(norm('1.5 baths'));
    expect(norm('1.5 baths')).not.toBe(norm('15 baths'));
  });

  it.each([
    ['unit 105', 'unit 15'],
    ['$15,000', '$15'],
    ['$15,000', '$15.000.000'],
    ['$1,500', '$15,00'],
    ['1.05', '1.5'],
    ['12.05.2025', '12.05.2026'],
    ['apartment A2', 'apartment A3'],
    ['apartment A2', 'apartment B2'],
    ['2br', '3br'],
  ])('%j and %j stay different', (a, b) => {
    expect(norm(a)).not.toBe(norm(b));
  });

  it.each([
    ['unit 05', 'unit 5'],
    ['unit 105', 'unit 0105'],
    ['$1,500', '$1500'],
    ['$1.500', '$1500'],
    ['1,5 baths', '1.5 baths'],
    ['apartment A2', 'apartment a 2'],
    ['2br', '2 br'],
    ['3pm', '3 pm'],
    ['12.05.2025', '12.5.2025'],
    ['12.50 baths', '12.5 baths'],
    ['10,50 baths', '10.5 baths'],
    ['2.00 baths', '2 baths'],
  ])('%j and %j are the same', (a, b) => {
    expect(norm(a)).toBe(norm(b));
  });

  it('a letter and a digit glued together are two words, in either order, for every letter and digit', () => {
    fc.assert(
      fc.property(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), fc.integer({ min: 1, max: 9 }), (letter, digit) => {
        expect(normalisedTokens(`apartment ${letter}${digit}`)).toEqual(['apartment', letter, String(digit)]);
        expect(normalisedTokens(`apartment ${digit}${letter}`)).toEqual(['apartment', String(digit), letter]);
      }),
    );
  });

  it.each([
    ['1234,567', '1234.567'],
    ['1,2345', '1.2345'],
    ['12.05.2025', '12.5.2025'],
    ['1.2.3', '1.2.3'],
    ['2.00', '2'],
    ['0.50', '0.5'],
    ['007', '7'],
  ])('writes the number %j as %j', (raw, canonical) => {
    expect(norm(raw)).toBe(canonical);
  });

  it('keeps a number of twenty digits exactly (no floating-point rounding)', () => {
    expect(normalisedTokens('ticket 12345678901234567891')).toEqual(['ticket', '12345678901234567891']);
  });
});

describe('words in normalised text', () => {
  it.each([
    ['dont', 'do not'], ['doesnt', 'does not'], ['didnt', 'did not'], ['isnt', 'is not'], ['arent', 'are not'],
    ['wasnt', 'was not'], ['werent', 'were not'], ['cant', 'can not'], ['cannot', 'can not'], ['wont', 'will not'],
    ['havent', 'have not'], ['hasnt', 'has not'], ['hadnt', 'had not'], ['shouldnt', 'should not'],
    ['wouldnt', 'would not'], ['couldnt', 'could not'], ['mustnt', 'must not'],
  ])('the contraction %j, with or without its apostrophe, is %j', (glued, expanded) => {
    expect(norm(`pets ${glued} allowed`)).toBe(`pets ${expanded} allowed`);
    const apostrophe = glued === 'cannot' ? 'cannot' : glued.replace(/t$/, "'t").replace(/^can't$/, "can't");
    expect(norm(`pets ${apostrophe} allowed`)).toBe(`pets ${expanded} allowed`);
    expect(norm(`pets ${apostrophe.replace("'", '’')} allowed`)).toBe(`pets ${expanded} allowed`);
  });

  it('"aint" is "is not"; "ain\'t" keeps its negation too', () => {
    expect(norm('pets aint allowed')).toBe('pets is not allowed');
    expect(normalisedTokens("pets ain't allowed")).toContain('not');
  });

  it('any contraction with a curly or grave apostrophe is the contraction with a straight one', () => {
    for (const mark of ['’', '`', '´']) {
      expect(norm(`the pool mightn${mark}t open`)).toBe('the pool might not open');
      expect(norm(`it isn${mark}t`)).toBe('it is not');
    }
    // The negation survives, so "aren´t" never reuses the reply to "are".
    expect(norm('Aren´t pets allowed?')).toBe('are not pets allowed');
  });

  it("won't and can't, whose stems change, expand to will not and can not", () => {
    expect(norm("won't")).toBe('will not');
    expect(norm("can't")).toBe('can not');
    expect(norm('won’t')).toBe('will not');
  });

  it('case, punctuation, spacing and accents do not matter, for any words', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 8 }), (words) => {
        const plain = words.join(' ');
        expect(norm(`  ${words.map((w) => w.toUpperCase()).join(' ,  ')}?!`)).toBe(norm(plain));
      }),
      { numRuns: 200 },
    );
    expect(norm('¿Qué incluye la RENTA?')).toBe('que incluye la renta');
    expect(norm('Niño   café')).toBe('nino cafe');
  });

  it('a word that names an Object.prototype member is a word like any other', () => {
    for (const name of Object.getOwnPropertyNames(Object.prototype)) {
      const letters = name.replace(/[^a-z]/gi, '').toLowerCase();
      if (letters === '') continue;
      expect(norm(`is the ${name} open`)).toBe(`is the ${normalisedTokens(name).join(' ')} open`);
    }
    expect(norm('constructor')).toBe('constructor');
  });
});
