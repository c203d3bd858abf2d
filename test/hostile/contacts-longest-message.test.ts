/**
 * Contact extraction on the longest message a caller may send (4000 characters) stays inside the
 * event loop's 50 ms budget, whatever the message repeats: the shapes issue 44's readers look for
 * (form fields, lines opening with a name, parentheses, capitals, invisible characters, Unicode
 * addresses) as well as the ones before them. And on any text it never throws and never returns an
 * invisible character.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractContact, warmUpContacts } from '../../src/contacts/find-contact.ts';
import { MESSAGE_MAX_CHARS } from '../../schemas/chat-request.schema.ts';
import { hostileText } from './hostile-text.ts';

beforeAll(async () => {
  await warmUpContacts();
}, 30_000);

const BUDGET_MS = 50;
const longest = (unit: string): string => unit.repeat(Math.ceil(MESSAGE_MAX_CHARS / unit.length)).slice(0, MESSAGE_MAX_CHARS);
const UNITS = [
  'First name: Wei\nLast name: ',
  'Nombre: Ana\nApellido paterno: Vega\n',
  'Marcus Bell - ',
  'Marcus Bell (unit 4',
  '(Megan Fowler, unit 402) ',
  '((((Aa ',
  'HI MY NAME IS DOROTHY SIMMONS ',
  "O'NEILL MCCLAIN ",
  'Jo\u200bhn\u202a ',
  '\u200b',
  'josé.pérez',
  'é@é.',
  '王伟@163.',
  'Mr. St. El de la ',
  'Nguyen Van Son Le ',
  '2, 773 448 ',
  '1) 602 448 1190 ',
  '+52 1 664 338 ',
  'su número mi vecina ',
  'info@x.com ',
  'April May June ',
  // The readers added for issue 44's visitors' phrasings: short numbers before a phone, numbers
  // without "+" after a cue, closings, a last line, intros and third parties.
  'apt 12 713 448 2290 ',
  'whatsapp 52 1 33 1829 4471 ',
  'mi whatsapp 34 612 345 678 ',
  'call me about the deposit 281 ',
  'Thanks in advance,\nOmar\n',
  'saludos, ana ',
  'soy rocio, ',
  'im john carver looking ',
  'la mamá de Sofía Ruiz ',
  '\t\t\t\n',
];

describe('the longest message', () => {
  it.each(UNITS)('made of %j is read within the loop budget', async (unit) => {
    const text = longest(unit);
    await extractContact(text, { defaultRegion: 'US' }); // the first run compiles
    // The best of five runs: the CPU the reading costs, not what the other processes on a shared
    // machine took from it meanwhile.
    let best = Infinity;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      await extractContact(text, { defaultRegion: 'US' });
      best = Math.min(best, performance.now() - started);
    }
    expect(best).toBeLessThan(BUDGET_MS);
  });
});

describe('any text', () => {
  const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;
  it('never throws, and no invisible character is ever in a result', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(), async (text) => {
        const found = await extractContact(text, { defaultRegion: 'US' });
        for (const value of Object.values(found)) if (value !== null) expect(value).not.toMatch(INVISIBLE);
      }),
      { numRuns: 300 },
    );
  });
});
