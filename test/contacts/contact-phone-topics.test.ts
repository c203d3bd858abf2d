/**
 * Issue 44's second round: a label of something else names the digits only next to them (a
 * property word further back, or after a preposition, is what the message is about), a short
 * number right before a phone is read apart from it unless an id's label says the digits are all
 * the id's, and after a phone cue an international number may be written without its "+"
 * (src/contacts/phone-context.ts labelBefore, src/contacts/phone.ts).
 */
import { describe, expect, it } from 'vitest';
import { extractContact } from '../../src/contacts/find-contact.ts';
import { findPhone } from '../../src/contacts/phone.ts';
import { ID_WORDS, NOT_PHONE_WORDS } from '../../src/contacts/phone-words.ts';

const phone = (text: string): string | null => findPhone(text, 'US');
const VALID = '305-482-7719';
const VALID_E164 = '+13054827719';

describe('a property word is the topic, not the label, away from the digits or after a preposition', () => {
  it.each([
    `my rent is late this month, ${VALID}`,
    `text me about the rent at ${VALID}`,
    `please call me about the deposit ${VALID}`,
    `problem with my patio door ${VALID}`,
    `la puerta del garaje no cierra ${VALID}`,
    `llámenme por lo del contrato ${VALID}`,
  ])('keeps the phone in %j', (text) => {
    expect(phone(text)).toBe(VALID_E164);
  });

  it.each([
    `call me, deposit ${VALID}`,
    `reserva, the number ${VALID}`,
    `solicitud de servicio ${VALID}`,
    `my account number with you is ${VALID}`,
    `any news regarding ticket ${VALID}?`,
  ])('still refuses the digits in %j', (text) => {
    expect(phone(text)).toBeNull();
  });
});

describe('a short number right before a phone', () => {
  it.each(['apt 12 713 448 2290', '#12 713 448 2290', 'lot 12 space 4 713 448 2290', 'tour at 12:30 713 448 2290', 'depto 3 713 448 2290'])(
    'is read apart from the phone in %j',
    (text) => {
      expect(phone(text)).toBe('+17134482290');
    },
  );

  it('is not split from the digits after an id label, nor when it is a trunk "1"', () => {
    expect(phone('ticket 57 310 558 2291')).toBeNull();
    expect(phone('order # 12 713 448 2290')).toBeNull();
    expect(phone('call me 1 713 448 2290')).toBe('+17134482290');
  });

  it('id labels are labels of something else', () => {
    for (const word of ID_WORDS) expect(NOT_PHONE_WORDS.has(word), word).toBe(true);
  });
});

describe('an international number without "+" after a phone cue', () => {
  it.each([
    ['whatsapp 57 310 558 2291', '+573105582291'],
    ['mi whats 52 1 33 1829 4471', '+523318294471'],
    ['my whatsapp is 521 81 1834 5590', '+528118345590'],
    ['mi whatsapp 34 612 345 678', '+34612345678'],
    ['mi numero de España 612 34 56 78', '+34612345678'],
  ])('reads %j as %s', (text, e164) => {
    expect(phone(text)).toBe(e164);
  });

  it('is not read so without a cue, nor split into a wrong US number', () => {
    expect(phone('57 310 558 2291')).toBeNull();
    expect(phone('ref 52 1 33 1829 4471')).toBeNull();
  });

  it('reads a bracketed area code after a country code and the Mexican mobile "1" as one number', async () => {
    const { phone: found } = await extractContact('whatsapp +52 1 (55) 1834 5678', { defaultRegion: 'US' });
    expect(found).toBe('+525518345678');
  });
});
