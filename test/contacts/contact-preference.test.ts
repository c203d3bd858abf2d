import { describe, expect, it } from 'vitest';
import { extractContact } from '../../src/contacts/find-contact.ts';
import { choosePreferred } from '../../src/contacts/preference.ts';
import * as words from '../../src/contacts/preference-words.ts';

const US = { defaultRegion: 'US' as const };

describe('whose contact, and which of two (docs/contracts.md#handoff-receiver)', () => {
  it.each([
    ["my husband's number is 305 212 9087, but call me at 305 640 3318", '+13056403318'],
    ['old number 512-339-2204, new one is 512-870-6651', '+15128706651'],
    ['home 713 661 2048 cell 713 902 7715 - cell is better', '+17139027715'],
    ['casa 713 661 2048 celular 713 902 7715, mejor al celular', '+17139027715'],
    ['el numero de mi esposo es 305 212 9087, pero llamame a mi al 305 640 3318', '+13056403318'],
    ['call 818 377 2290 or 818 377 6614', '+18183772290'],
    ['i called your office at 312-644-1020 nobody answered. my cell is 312 908 4471', '+13129084471'],
    ['llame a la oficina al 305 644 1020 y nadie contesta, mi cel es 305 908 4471', '+13059084471'],
    ['office line 214 555 0190 x12, mornings are best', '+12145550190'],
    ['Please have Michelle Davis from leasing call me at 214 309 2281', '+12143092281'],
  ])('takes the visitor\'s preferred phone in %j', async (text, phone) => {
    expect((await extractContact(text, US)).phone).toBe(phone);
  });

  it.each([
    'the number on your website (415) 870-2200 goes to voicemail. I need a person',
    'el numero de ustedes 713 870 2200 no contesta',
    'ticket 4158823310 still not fixed, need an agent',
    'reporte #8324471102 porfa',
  ])('takes no phone from %j: it is the property\'s or not a phone', async (text) => {
    expect((await extractContact(text, US)).phone).toBeNull();
  });

  it.each([
    ['work email is dana.k@acmecorp.com, but use my personal one dana.kim88@gmail.com', 'dana.kim88@gmail.com'],
    ['school email is pk2231@utexas.edu but i check priya.k@gmail.com more', 'priya.k@gmail.com'],
    ['el de mi esposo es jorge.v@aol.com, mandenlo al mio: carmen.v@aol.com', 'carmen.v@aol.com'],
    ['email me at lisa.m@gmail.com or lisa@lisamarkets.co', 'lisa.m@gmail.com'],
  ])('takes the visitor\'s preferred address in %j', async (text, email) => {
    expect((await extractContact(text, US)).email).toBe(email);
  });

  it('answers null when nothing was found', () => {
    expect(choosePreferred('no details here', [])).toBeNull();
  });

  it('keeps its word lists as lower-case, accent-free single words', () => {
    for (const value of Object.values(words)) {
      for (const word of value as ReadonlySet<string>) expect(word).toMatch(/^[a-z']+$/);
    }
  });
});
