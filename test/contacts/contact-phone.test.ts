import type { CountryCode } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { findPhone, findPhones } from '../../src/contacts/phone.ts';

const phone = (text: string, defaultRegion: 'US' | 'MX' | 'ES' | 'GB' = 'US'): string | null => findPhone(text, defaultRegion);

describe('phone extraction: numbers people write', () => {
  it.each([
    ['call me at (212) 748-3091', '+12127483091'],
    ['305-482-7719', '+13054827719'],
    ['my cell 786 342 1187 thanks', '+17863421187'],
    ['text 5124839920', '+15124839920'],
    ['646.219.7741', '+16462197741'],
    ['+1 (713) 264-8830', '+17132648830'],
    ['1-917-442-0386', '+19174420386'],
    ['(786)342-1187 thx', '+17863421187'],
    ['210 5550150', '+12105550150'],
  ])('reads the US number in %j as E.164', (text, expected) => {
    expect(phone(text)).toBe(expected);
  });

  it.each([
    ['call me at (210) 555-0150', '+12105550150'],
    ['my number is 915.555.0188', '+19155550188'],
    ['text me 3125550100', '+13125550100'],
    ['WhatsApp: +1 786 555 0158', '+17865550158'],
    ['llámame al 786 555 0133', '+17865550133'],
    ['llámeme al 786 555 0170 mañana', '+17865550170'],
    ['mi número es 3055550177', '+13055550177'],
    ['mi cel: (305) 555-0166', '+13055550166'],
    ['Tel.: 407.555.0121', '+14075550121'],
    ['Maria Gonzalez 305-555-0142', '+13055550142'],
  ])('keeps the 555-01xx number used in examples, cued or laid out as a phone: %j', (text, expected) => {
    expect(phone(text)).toBe(expected);
  });

  it('keeps a possible number the metadata does not know when the text says it is a phone', () => {
    // 282 and 536 are not (yet) area codes in libphonenumber's metadata: possible, not valid.
    expect(phone('my number is 5364827719')).toBe('+15364827719');
    expect(phone('call me 282.482.7719')).toBe('+12824827719');
    expect(phone('mi número es 28 24 82 77 19')).toBe('+12824827719');
    // Without a cue, only a phone layout marks it: odd groups alone do not.
    expect(phone('(282) 482-7719')).toBe('+12824827719');
    expect(phone('ref 28 24 82 77 19 ok')).toBeNull();
  });

  it.each([
    ['tel: +1-305-918-4420 ext. 12', '+13059184420'],
    ['my phone is 646-555-0142 ext 7', '+16465550142'],
    ['home line 646 555 0142 x9', '+16465550142'],
    ['reach me at 737-555-0104x22', '+17375550104'],
    ['Llámeme al (832) 555-0110, extensión 204', '+18325550110'],
  ])('leaves the extension out of the E.164 number: %j', (text, expected) => {
    expect(phone(text)).toBe(expected);
  });
});

describe('phone extraction: regions and country codes', () => {
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

  it('reads a number in the plan of the country written beside it when the default region does not fit', () => {
    expect(phone('Mi número es 55-8123-4567 de CDMX (+52)')).toBe('+525581234567');
    expect(phone('mi whatsapp de México es 55 8123 4567')).toBe('+525581234567');
    // A US number stays a US number when Mexico is only mentioned.
    expect(phone('I moved from Mexico, call me at 305-482-7719')).toBe('+13054827719');
  });

  it('reads only numbers with a country code when the default region is not supported', () => {
    const region = 'XX' as CountryCode; // a misconfigured DEFAULT_PHONE_REGION must not throw
    expect(findPhone('call +44 20 7946 0958', region)).toBe('+442079460958');
    expect(findPhone('call 305-482-7719', region)).toBeNull();
  });

  it('reports the first number when there are several', () => {
    expect(phone('Call 305-482-7719 or 786-342-1187')).toBe('+13054827719');
    expect(findPhones('Call 305-482-7719 or 786-342-1187', 'US')).toEqual(['+13054827719', '+17863421187']);
  });

  it('reads a message made of hundreds of numbers only as far as its first ten', () => {
    const numbers = Array.from({ length: 300 }, (_, i) => `305-482-${String(1000 + i)}`).join(' ');
    expect(findPhones(numbers, 'US')).toEqual(Array.from({ length: 10 }, (_, i) => `+1305482${String(1000 + i)}`));
  });
});

describe('phone extraction: never a phone', () => {
  it.each([
    'Please call me at 123-456-7890', // area code 123 cannot exist (NANP: never 0 or 1 first)
    'phone 212-111-2233', // nor an exchange starting with 1
    'my number is 555-1234', // no area code: no E.164 number
    'my number is 786-555-013', // a digit short
  ])('does not report the unreachable or incomplete number in %j', (text) => {
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
    'I make $4,500 a month and my credit score is 720',
    'The price is $3054827719 total',
    'the price is $ 3054827719', // libphonenumber alone reads this one as a phone
    'rent 3054827719/mo',
    '3054827719 dollars',
    'the loft is 2125550147 sq ft',
  ])('finds no phone in the lookalike %j', (text) => {
    expect(phone(text)).toBeNull();
  });

  it.each([
    'call me about unit 2107',
    'please call, apartment 1203 has no water',
    'Is it $2,300? call me',
    'código postal 33130, llámeme',
    'call me, I am on the 14th floor',
    'Estoy en el piso 14, llámenme al rato',
    'Llámame mañana a las 9:45, el 15/06',
    'My booking confirmation is 3054827719, please text me',
    'Mi número de reserva: 3059184420. Llámenme',
    'número de confirmación: 7865550123, llámenme',
    'My reservation number is 2125550147, call me',
    'order #4155550123 has not arrived, text me',
    'Ticket 3124829901, call me',
    'Caso 3059184420: el calentador sigue roto, llámenme',
    'My account number is 9175550100, call me',
    'the price is 3054827719, call me',
    '3054827719 is my confirmation number, call me',
  ])('finds no phone in %j, cue word or not', (text) => {
    expect(phone(text)).toBeNull();
  });

  it('does not read digits inside an email address or glued to letters as a phone', () => {
    expect(phone('write to owner3054827719@gmail.com')).toBeNull();
    expect(phone('owner3054827719@gmail.com or 786-342-1187')).toBe('+17863421187');
    expect(phone('code ABC3054827719')).toBeNull();
  });

  it('finds a phone next to a unit number or an id', () => {
    expect(phone('Apt 1203 phone 305-482-7719')).toBe('+13054827719');
    expect(phone('Mi nombre es Tomás, apto 1402, cel 786 555 0114')).toBe('+17865550114');
    expect(phone('unit 12, phone: 646 555 0142')).toBe('+16465550142');
    expect(phone('Booking #B7731, text me at 305.555.0123')).toBe('+13055550123');
  });
});
