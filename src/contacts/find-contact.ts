/**
 * Contact details in a chat message (processing rule 6, docs/contracts.md#handoff-receiver): the visitor's own name, phone and
 * email, each null when the message has none. Numbers and addresses written out in words are read
 * (spoken.ts); of two phones or emails, the one the visitor prefers is taken, and never a relative's
 * or the property's own (preference.ts). Phones come out as E.164, read with `defaultRegion` when
 * written without a country code.
 *
 * The finders' libraries are loaded once, on first need: compromise and its lexicon (about 45 MiB)
 * and libphonenumber's full metadata (about 17 MiB) take 0.2 to 2 s to load, and most chats never
 * ask for contact details, so an idle process does not hold them. The first contact chat waits for
 * the load; `warmUpContacts()` starts it ahead (for a process that prefers that to the memory).
 * The text is read NFC and without zero-width and bidi control characters (clean-text.ts).
 */
import type { CountryCode } from 'libphonenumber-js';
import { cleanText } from './clean-text.ts';
import { findEmails, isRoleAddress, type EmailMatch } from './email.ts';
import { choosePreferred } from './preference.ts';
import { normaliseSpoken } from './spoken.ts';
import type { PhoneMatch } from './phone.ts';

export interface ExtractedContact { name: string | null; phone: string | null; email: string | null }

interface Finders {
  findName(text: string): string | null;
  findPhoneMatches(text: string, defaultRegion: CountryCode): PhoneMatch[];
}

let loading: Promise<Finders> | undefined;

function finders(): Promise<Finders> {
  loading ??= Promise.all([import('./name.ts'), import('./phone.ts')]).then(
    ([name, phone]) => ({ findName: name.findName, findPhoneMatches: phone.findPhoneMatches }),
    (err: unknown) => {
      loading = undefined; // a failed load is tried again by the next caller
      throw err;
    },
  );
  return loading;
}

/** Loads the name and phone finders now, so the first contact chat does not wait. Never rejects. */
export async function warmUpContacts(): Promise<boolean> {
  try {
    await finders();
    return true;
  } catch {
    return false;
  }
}

// "my work email is info@mybusiness.com": a role address the writer calls their own is kept.
const OWN_BEFORE = /(?<![\p{L}])(?:my|mi)(?![\p{L}])[^,.;!?\n]{0,30}$/iu;

/** An office's role address ("leasing@...", "info@...") that the writer does not call their own. */
const isOfficeAddress = (text: string, found: EmailMatch): boolean =>
  isRoleAddress(found.email) && !OWN_BEFORE.test(text.slice(Math.max(0, found.start - 40), found.start));

export async function extractContact(text: string, opts: { defaultRegion: CountryCode }): Promise<ExtractedContact> {
  const { findName, findPhoneMatches } = await finders();
  // Every finder reads the composed text without invisible characters, so none is ever in a result.
  const clean = cleanText(text);
  const readable = normaliseSpoken(clean);
  const phone = choosePreferred(readable, findPhoneMatches(readable, opts.defaultRegion))?.phone ?? null;
  const email = choosePreferred(readable, findEmails(readable).filter((e) => !isOfficeAddress(readable, e)))?.email ?? null;
  return { name: findName(clean), phone, email };
}
