import type { CountryCode } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { extractContact } from '../../src/contacts/find-contact.ts';
import { findPhones } from '../../src/contacts/phone.ts';

const phone = (text: string, defaultRegion: 'US' | 'MX' | 'ES' | 'GB' = 'US'): string | null =>
  extractContact(text, { defaultRegion }).phone;

describe('phone extraction', () => {
  it.each([
    ['call me at (212) 748-3091', '+12127483091'],
    ['305-482-7719', '+13054827719'],
    ['my cell 786 342 1187 thanks', '+17863421187'],
    ['text 5124839920', '+15124839920'],
    ['646.219.7741', '+16462197741'],
    ['+1 (713) 264-8830', '+17132648830'],
    ['1-917-442-0386', '+19174420386'],
    ['(786)342-1187 thx', '+17863421187'],
    ['tel: +1-305-918-4420 ext. 12', '+13059184420'],
  ])('reads the US number in %j as E.164', (text, expected) => {
    expect(phone(text)).toBe(expected);
  });

  it.each([
    ['+44 20 7946 0958', '+442079460958'],
    ['Mi celular es +52 55 1234 5678', '+525512345678'],
    ['móvil +34 612 34 56 78', '+34612345678'],
    ['+61 412 345 678', '+61412345678'],
  ])('keeps the written country code of %j whatever the default region', (text, expected) => {
    expect(phone(text, 'US')).toBe(expected);
    expect(phone(text, 'MX')).toBe(expected);
  });

  it('reads numbers without a country code with the default region', () => {
    expect(phone('mi número es 55 1234 5678', 'MX')).toBe('+525512345678');
    expect(phone('llámame al 612 34 56 78', 'ES')).toBe('+34612345678');
    expect(phone('ring 020 7946 0958', 'GB')).toBe('+442079460958');
    // The same Spanish mobile digits mean nothing as a US number.
    expect(phone('llámame al 612 34 56 78', 'US')).toBeNull();
  });

  it('reads only numbers with a country code when the default region is not supported', () => {
    const region = 'XX' as CountryCode; // a misconfigured DEFAULT_PHONE_REGION must not throw
    expect(extractContact('call +44 20 7946 0958', { defaultRegion: region }).phone).toBe('+442079460958');
    expect(extractContact('call 305-482-7719', { defaultRegion: region }).phone).toBeNull();
  });

  it('reports the first number when there are several', () => {
    expect(phone('Call 305-482-7719 or 786-342-1187')).toBe('+13054827719');
    expect(findPhones('Call 305-482-7719 or 786-342-1187', 'US')).toEqual(['+13054827719', '+17863421187']);
  });

  it.each([
    'Please call me at 123-456-7890', // area code 123 does not exist
    'my number is 555-1234', // no area code
    'call (408) 555-0134', // NANP fiction range 555-0100..0199
    'phone 212-111-2233', // exchange cannot start with 1
  ])('does not report the invalid number in %j', (text) => {
    expect(phone(text)).toBeNull();
  });

  it.each([
    'The 1 bedroom is $1,450/month',
    'budget 1450 per month, maybe 2,100',
    'Budget is $2,000-$2,500, looking at units 1203 and 1507',
    'Is unit 2104 available? apt 12B too',
    'Lease from 03/01/2025 to 02/28/2026',
    'available 2025-04-01 or 12/15/2025',
    'tour at 10:30 or 11:45 am',
    'zip 33131, or 33126-2204',
    '1,250 sq ft for $2,310; the 850 sqft one is 1800',
    'rent between 1800 and 2100, 2 bed 2 bath, 1100 sq ft',
    'I make $4,500 a month and my credit score is 720',
    'The price is $3054827719 total',
    'the price is $ 3054827719', // libphonenumber alone reads this one as a phone
    'rent 3054827719/mo',
    '3054827719 dollars',
    'the loft is 2125550147 sq ft',
  ])('finds no phone in the lookalike %j', (text) => {
    expect(phone(text)).toBeNull();
  });

  it('does not read digits inside an email address as a phone', () => {
    expect(phone('write to owner3054827719@gmail.com')).toBeNull();
    expect(phone('owner3054827719@gmail.com or 786-342-1187')).toBe('+17863421187');
  });

  it('finds a phone next to a unit number', () => {
    expect(phone('Apt 1203 phone 305-482-7719')).toBe('+13054827719');
  });
});
