/**
 * Digit runs that look like a phone but are written as money, a measure or part of a code, and the
 * country a writer names beside a number (src/contacts/phone-context.ts: isMoneyOrMeasure,
 * isGluedToLetters, countryHint).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findPhone } from '../../src/contacts/phone.ts';

const phone = (text: string): string | null => findPhone(text, 'US');
const DIGITS = '3054827719';
const E164 = '+13054827719';

describe('money is never a phone, whatever its length', () => {
  it('refuses digits right after a currency sign, spaced or not, and nothing else decides it', () => {
    expect(phone(`I can pay ${DIGITS}`)).toBe(E164);
    expect(phone(`I can pay $${DIGITS}`)).toBeNull();
    expect(phone(`I can pay $ ${DIGITS}`)).toBeNull();
    expect(phone(`I can pay €  ${DIGITS}`)).toBeNull();
    expect(phone(`$${DIGITS} sent`)).toBeNull();
  });

  it('keeps a phone written after an amount, or in a message that ends with one', () => {
    expect(phone('I paid $5. 305-482-7719 is my cell')).toBe(E164);
    expect(phone('call me at 305-482-7719, budget 2000$')).toBe(E164);
  });
});

describe('a measure or a price after the digits', () => {
  // `_` stands for any run of spaces the writer put there (none allowed where `?`).
  const forms = ['?sq._ft', '?sq.?ft', '?sq?feet', '_sqft', '_ft2', '_ft²', '_m2', '_m²', '_pies', '?/?mo', '_per_month', '_a_month', '_al_mes', '_usd', '_dollars', '_dólares', '_dolares', '_pesos', '?%'];
  const spaces = (min: number) => fc.stringMatching(new RegExp(`^[ \\t]{${String(min)},3}$`));

  it('makes the digits before it something other than a phone, however spaced', () => {
    fc.assert(
      fc.property(fc.constantFrom(...forms), fc.infiniteStream(spaces(1)), fc.infiniteStream(spaces(0)), (form, some, any) => {
        const written = form.replace(/[_?]/g, (mark) => (mark === '_' ? some.next().value : any.next().value));
        expect(phone(`${DIGITS}${written}`)).toBeNull();
      }),
    );
  });

  it('says nothing when it is not right after the digits', () => {
    expect(phone(`Call ${DIGITS} about 900 sqft`)).toBe(E164);
    expect(phone(`${DIGITS}, rent is 1200 a month`)).toBe(E164);
  });
});

describe('digits glued to letters are part of a code', () => {
  it.each([`ABC${DIGITS}`, `${DIGITS}b`, `x_${DIGITS}`])('%j is not a phone', (text) => {
    expect(phone(text)).toBeNull();
  });
});

describe('a country named beside the number', () => {
  it('reads the number in the plan of a calling code written right after it, bracketed or not', () => {
    expect(phone('Mi número es 55-8123-4567 +52')).toBe('+525581234567');
    expect(phone('Mi número es 55-8123-4567 (+52) de CDMX')).toBe('+525581234567');
  });

  it('does not take the "+1" of the next number for a calling code', () => {
    expect(phone('Mi número de México es 55-8123-4567, o +1 786 342 1187')).toBe('+525581234567');
    expect(phone('Mi número de México es 55-8123-4567, o +1  786 342 1187')).toBe('+525581234567');
  });

  it('reads only the forty characters on each side of the number', () => {
    expect(phone('my number is 28 24 82 77 19, call after five pm or on weekends, I am from Mexico')).toBe('+12824827719');
    expect(phone('I grew up in Mexico but have lived here for years, my number is 28 24 82 77 19')).toBe('+12824827719');
    expect(phone('my number is 28 24 82 77 19, I am from Mexico')).toBe('+522824827719');
  });
});
