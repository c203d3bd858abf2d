import { describe, expect, it } from 'vitest';
import { extractContact } from '../../src/contacts/find-contact.ts';
import { normaliseSpoken } from '../../src/contacts/spoken.ts';
import { DIGIT_WORDS, SPOKEN_TLDS } from '../../src/contacts/spoken-words.ts';

const US = { defaultRegion: 'US' as const };

describe('numbers and addresses written out (docs/contracts.md#handoff-receiver)', () => {
  it.each([
    ['call me seven one three four eight two nine nine one zero', '+17134829910'],
    ['my number is three one two, eight four seven, two two nine zero', '+13128472290'],
    ['text six oh two nine one eight four four seven three', '+16029184473'],
    ['mi numero es ocho uno ocho dos cuatro cuatro siete uno cero tres', '+18182447103'],
    ['my cell 3 0 5 7 7 1 2 0 9 4', '+13057712094'],
    ['tel: 9 1 5 - 2 0 4 - 3 3 8 7', '+19152043387'],
    ['whatsapp +52 1 55 4172 3380', '+525541723380'],
    ['llamame al 044 33 1845 2290', '+523318452290'],
    ['mi movil 0034 612 448 921', '+34612448921'],
  ])('reads the phone in %j', async (text, phone) => {
    expect((await extractContact(text, US)).phone).toBe(phone);
  });

  it.each([
    ['email me mike.r at gmail dot com', 'mike.r@gmail.com'],
    ['contact: carlos (at) outlook (dot) com', 'carlos@outlook.com'],
    ['my email is jen underscore lee at yahoo dot com', 'jen_lee@yahoo.com'],
    ['escribeme a maria punto lopez arroba hotmail punto com', 'maria.lopez@hotmail.com'],
    ['correo: rgarcia arroba yahoo punto com punto mx', 'rgarcia@yahoo.com.mx'],
    ['carlos guion bajo diaz arroba outlook punto com', 'carlos_diaz@outlook.com'],
    ["send it to 'kim.lee@gmail.com' please", 'kim.lee@gmail.com'],
    ['mi correo es «beto.s@gmail.com»', 'beto.s@gmail.com'],
  ])('reads the address in %j', async (text, email) => {
    expect((await extractContact(text, US)).email).toBe(email);
  });

  it.each([
    'i will be at home at 6. call me then',
    'we looked at the unit at the end of the hall dot com website was down',
    'one or two bedrooms for 3 4 people',
    'the total was 1 2 3 dollars',
    'Ring me on 020 7946 0018 please',
  ])('leaves prose alone: %j', (text) => {
    expect(normaliseSpoken(text)).toBe(text);
  });

  it('keeps its word lists lower-case and accent-free, every digit word mapping to one digit', () => {
    for (const [word, digit] of DIGIT_WORDS) {
      expect(word).toMatch(/^[a-z]+$/);
      expect(digit).toMatch(/^\d$/);
    }
    for (const tld of SPOKEN_TLDS) expect(tld).toMatch(/^[a-z]{2,4}$/);
  });

  it('stays linear on a long message of digit words, "at"s and dots', () => {
    const text = 'one two at dot punto arroba 4 5 '.repeat(130).slice(0, 4000);
    const started = performance.now();
    normaliseSpoken(text);
    expect(performance.now() - started).toBeLessThan(50);
  });
});
