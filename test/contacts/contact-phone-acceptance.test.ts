/**
 * Which candidate numbers src/contacts/phone.ts keeps, and where it says they were written: the
 * e-mail masking before the search, the final acceptance rule, a refused number never hiding the
 * real one, the re-reading in a country named beside the number, and the bound on candidates.
 */
import type { CountryCode } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { findPhone, findPhoneMatches, findPhones } from '../../src/contacts/phone.ts';

const phone = (text: string): string | null => findPhone(text, 'US');

describe('e-mail addresses are masked before numbers are searched', () => {
  it('never reads the digits of an e-mail address as a phone (nothing else would refuse them)', () => {
    expect(phone('email 3054827719@gmail.com')).toBeNull();
    expect(phone('email me: 3054827719@gmail.com, thanks')).toBeNull();
  });

  it('reports a phone written after an address where it is written', () => {
    const text = 'mail 3054827719@gmail.com or call 786-342-1187';
    const at = text.indexOf('786');
    expect(findPhoneMatches(text, 'US')).toEqual([{ phone: '+17863421187', start: at, end: at + '786-342-1187'.length }]);
    const two = 'a.b@x.com, 1@y.org or 786-342-1187';
    expect(findPhoneMatches(two, 'US')).toEqual([{ phone: '+17863421187', start: two.indexOf('786'), end: two.length }]);
  });
});

describe('the final acceptance rule', () => {
  it('refuses a possible number that is neither valid, cued nor laid out as a phone', () => {
    expect(phone('I think 28 24 82 77 19')).toBeNull();
    expect(phone('I think (282) 482-7719')).toBe('+12824827719'); // the layout alone is enough
    expect(phone('call 28 24 82 77 19')).toBe('+12824827719'); // so is a cue
  });

  it('judges the layout of the number itself, not of the digits around it', () => {
    expect(phone('(282) 482-7719, apt 4')).toBe('+12824827719');
    expect(phone('Hi, (282) 482-7719 after 5')).toBe('+12824827719');
  });
});

describe('a refused number does not hide the real one', () => {
  it.each([
    ['Ticket 3124829901, call me at 305-482-7719', '+13054827719'],
    ['$3124829901 is too much. 305-482-7719', '+13054827719'],
    ['I think 28 24 82 77 19 or call 786-342-1187', '+17863421187'],
  ])('%j -> %j', (text, expected) => {
    expect(phone(text)).toBe(expected);
    expect(findPhones(text, 'US')).toEqual([expected]);
  });

  it('reads twenty candidates at most: a phone after twenty refused ones is not read', () => {
    const refused = (n: number): string => Array.from({ length: n }, (_, i) => `ticket 31248299${String(10 + i)},`).join(' ');
    expect(phone(`${refused(19)} call me at 305-482-7719`)).toBe('+13054827719');
    expect(phone(`${refused(20)} call me at 305-482-7719`)).toBeNull();
  });
});

describe('a country named beside the number', () => {
  it('keeps a valid number laid out as a US phone in the US plan, even when it is valid in the country named', () => {
    expect(phone("I'm from Mexico, call me at 818-377-2290")).toBe('+18183772290');
    expect(phone('In Mexico until 2019, now call 818-377-2290')).toBe('+18183772290');
  });

  it('reads the number in the named country only when it is valid there', () => {
    expect(phone('my number is 28 24 82 77 19, from Mexico')).toBe('+522824827719');
    expect(phone('my number is 28 24 82 77 19, from Spain')).toBe('+12824827719');
  });

  it('survives a calling code that belongs to no country', () => {
    expect(phone('my number is 28 24 82 77 19 (+999)')).toBe('+12824827719');
  });
});

describe('a default region libphonenumber does not know', () => {
  it('still reads a "+1" number that is possible but not yet valid, when a cue marks it', () => {
    expect(findPhone('call +1 282-482-7719', 'XX' as CountryCode)).toBe('+12824827719');
  });
});
