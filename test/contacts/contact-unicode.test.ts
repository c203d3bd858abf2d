/**
 * Issue 44's defect: an address whose local part has a non-ASCII letter, or a name or address with
 * a zero-width or bidi control character inside, came out cut ("josé.pérez@gmail.com" ->
 * "rez@gmail.com", "Jo\u200bhn" -> "Jo"), and the cut value went to the handoff receiver unmasked.
 * Addresses of RFC 6531's shape are found whole or not at all; invisible characters are never in a
 * result and never cut one.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanText } from '../../src/contacts/clean-text.ts';
import { findEmails } from '../../src/contacts/email.ts';
import { extractContact, warmUpContacts } from '../../src/contacts/find-contact.ts';

beforeAll(async () => {
  await warmUpContacts();
}, 30_000);

const contact = (text: string) => extractContact(text, { defaultRegion: 'US' });

/** Every character the issue lists as invisible. */
const INVISIBLE = [
  ...Array.from({ length: 5 }, (_, i) => 0x200b + i),
  ...Array.from({ length: 5 }, (_, i) => 0x202a + i),
  ...Array.from({ length: 10 }, (_, i) => 0x2060 + i),
  0xfeff,
].map((code) => String.fromCodePoint(code));

describe('addresses with letters of any script (RFC 6531)', () => {
  it.each([
    ['my email is josé.pérez@gmail.com', 'josé.pérez@gmail.com'],
    ['write to jöhn@web.de', 'jöhn@web.de'],
    ['mi correo: begoña_ibáñez@yahoo.es.', 'begoña_ibáñez@yahoo.es'],
    ['email 王伟@163.com please', '王伟@163.com'],
    ['пишите на иван.петров@mail.ru', 'иван.петров@mail.ru'],
    ['¿es müller@gmx.de?', 'müller@gmx.de'],
    ['escríbeme a jesús@peñalver.es', 'jesús@peñalver.es'],
    ['ŞEBNEM@GMAIL.COM', 'ŞEBNEM@gmail.com'],
  ])('%j -> %s', async (text, expected) => {
    expect((await contact(text)).email).toBe(expected);
  });

  it('reads a decomposed accent (e + U+0301) as the composed letter', async () => {
    expect((await contact('my email is jose\u0301.pe\u0301rez@gmail.com')).email).toBe('josé.pérez@gmail.com');
  });
});

// Pieces of local parts and host labels: ASCII, Latin letters with accents, other scripts.
const LOCAL_CHARS = [...'abcxyzKLM019_+-', ...'éèñüößçøåłşıžčœ', ...'王伟陈静', ...'иванпетр', ...'αβγ'];
const LABEL_CHARS = [...'abcdefmnoxyz0123456789', ...'ñéöü'];
const atom = fc.array(fc.constantFrom(...LOCAL_CHARS), { minLength: 1, maxLength: 10 }).map((cs) => cs.join(''));
const label = fc.array(fc.constantFrom(...LABEL_CHARS), { minLength: 1, maxLength: 12 }).map((cs) => cs.join(''));
const tld = fc.constantFrom('com', 'es', 'mx', 'de', 'org', 'co', 'рф', 'españa');
/** An address of RFC 6531's shape: dot-separated atoms of letters in any script, a host, a TLD. */
const address = fc
  .tuple(fc.array(atom, { minLength: 1, maxLength: 3 }), fc.array(label, { minLength: 1, maxLength: 3 }), tld)
  .map(([atoms, labels, top]) => `${atoms.join('.')}@${[...labels, top].join('.')}`)
  .filter((a) => a.indexOf('@') <= 64 && a.length <= 254);
const word = fc.constantFrom('my', 'email', 'is', 'correo', 'es', 'escríbeme', 'a', 'please', 'gracias', 'Zoë', 'Ñandú', 'über', 'call', '¿ok?', '2 bed', 'María');
const sentence = fc.array(word, { maxLength: 6 }).map((ws) => ws.join(' '));
const before = fc.constantFrom(' ', ': ', ', ', ' (', ' <', ' "', ' ¿', '\n', ' mailto:');
const after = fc.constantFrom('', ' ', '.', '. ', ', ', '!', '?', ')', '>', '"', '\n', '; ');

describe('property: an address embedded in a sentence', () => {
  it('is found whole, never a suffix or a prefix of it', () => {
    fc.assert(
      fc.property(sentence, before, address, after, sentence, (head, open, addr, close, tail) => {
        const text = `${head}${open}${addr}${close}${tail === '' ? '' : ` ${tail}`}`;
        const found = findEmails(text).map((m) => m.email);
        expect(found).toEqual([addr]);
      }),
      { numRuns: 500 },
    );
  });

  it('glued to other characters, is found whole or not at all, never as its tail', () => {
    // Whatever stands right before it (letters, marks, symbols, emoji), no tail of it is reported.
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 3 }), address, (glued, addr) => {
        for (const { email } of findEmails(cleanText(`mail ${glued}${addr} now`))) {
          expect(email !== addr && addr.endsWith(email), `${email} is a tail of ${addr}`).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('zero-width and bidi control characters', () => {
  it('cleanText removes every one of them and composes accents', () => {
    for (const ch of INVISIBLE) expect(cleanText(`Jo${ch}hn jo${ch}hn@x.com`)).toBe('John john@x.com');
    expect(cleanText('Jose\u0301')).toBe('José');
  });

  const NAMES = ['John Carter', 'María Torres', 'Priya Raman', 'Oksana Kovalenko', 'Nguyen Thi Hoa', 'Sean O\'Sullivan', 'Begoña Ibáñez'];
  const ADDRESSES = ['john.carter@gmail.com', 'josé.pérez@gmail.com', 'jöhn@web.de', 'ana_lopez92@hotmail.com', 'kim.lee@icloud.com'];

  it('property: one inserted anywhere in a name, an address or a number never cuts it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...NAMES), fc.constantFrom(...ADDRESSES), fc.constantFrom(...INVISIBLE), fc.nat(), fc.nat(), fc.nat(), async (name, addr, ch, atName, atAddr, atPhone) => {
        const insert = (s: string, at: number): string => s.slice(0, at % (s.length + 1)) + ch + s.slice(at % (s.length + 1));
        const text = `my name is ${insert(name, atName)}, email ${insert(addr, atAddr)}, cell ${insert('(415) 772-0934', atPhone)}`;
        const found = await contact(text);
        expect(found).toEqual({ name, email: addr, phone: '+14157720934' });
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['email: ana\u200b.lopez@gmail.com', { email: 'ana.lopez@gmail.com' }],
    ['\ufeffThis is Nadia Petrov, nadia.petrov\u200c@hotmail.com', { name: 'Nadia Petrov', email: 'nadia.petrov@hotmail.com' }],
    ['mi whatsapp \u2066+52 33 1927 4450\u2069', { phone: '+523319274450' }],
    ['llámame al \u202a+1 (305) 772-0934\u202c', { phone: '+13057720934' }],
    ['me llamo Mar\u200bía Torres', { name: 'María Torres' }],
  ])('%j', async (text, expected) => {
    expect(await contact(text)).toMatchObject(expected);
  });
});
