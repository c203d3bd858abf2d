/**
 * Contact details in a chat message (SPEC 4.2 rule 6): the first name, phone and email found, each
 * null when the message has none. Phones come out as E.164, read with `defaultRegion` when written
 * without a country code.
 */
import type { CountryCode } from 'libphonenumber-js';
import { findEmail } from './email.ts';
import { findName } from './name.ts';
import { findPhone } from './phone.ts';

export interface ExtractedContact { name: string | null; phone: string | null; email: string | null }

export function extractContact(text: string, opts: { defaultRegion: CountryCode }): ExtractedContact {
  return { name: findName(text), phone: findPhone(text, opts.defaultRegion), email: findEmail(text) };
}
