/**
 * Contact details in a chat message (processing rule 6 of docs/api.md#what-a-chat-does-in-order): the first name, phone and email found, each
 * null when the message has none. Phones come out as E.164, read with `defaultRegion` when written
 * without a country code.
 *
 * The finders' libraries are loaded once, on first need: compromise and its lexicon (about 45 MiB)
 * and libphonenumber's full metadata (about 17 MiB) take 0.2 to 2 s to load, and most chats never
 * ask for contact details, so an idle process does not hold them. The first contact chat waits for
 * the load; `warmUpContacts()` starts it ahead (for a process that prefers that to the memory).
 */
import type { CountryCode } from 'libphonenumber-js';
import { findEmail } from './email.ts';

export interface ExtractedContact { name: string | null; phone: string | null; email: string | null }

interface Finders {
  findName(text: string): string | null;
  findPhone(text: string, defaultRegion: CountryCode): string | null;
}

let loading: Promise<Finders> | undefined;

function finders(): Promise<Finders> {
  loading ??= Promise.all([import('./name.ts'), import('./phone.ts')]).then(
    ([name, phone]) => ({ findName: name.findName, findPhone: phone.findPhone }),
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

export async function extractContact(text: string, opts: { defaultRegion: CountryCode }): Promise<ExtractedContact> {
  const { findName, findPhone } = await finders();
  return { name: findName(text), phone: findPhone(text, opts.defaultRegion), email: findEmail(text) };
}
