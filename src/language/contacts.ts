import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js';

export interface ExtractedContact {
  name: string | null;
  phone: string | null;
  email: string | null;
}

const EMAIL = /[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/;
const INTRODUCTION = /\b(?:[Mm]y name is|[Mm]e llamo|[Mm]i nombre es)\s+([A-ZÁÉÍÓÚÑ][\p{L}'-]+(?:\s+[A-ZÁÉÍÓÚÑ][\p{L}'-]+)?)/u;

/** First honest version: email pattern, libphonenumber-js for phones, introduction phrases for names. */
export function extractContact(text: string, opts: { defaultRegion: CountryCode }): ExtractedContact {
  const email = EMAIL.exec(text);
  const phone = findPhoneNumbersInText(text, opts.defaultRegion).find((found) => found.number.isValid());
  return {
    name: INTRODUCTION.exec(text)?.[1] ?? null,
    phone: phone?.number.number ?? null,
    email: email ? email[0].replace(email[1] ?? '', (email[1] ?? '').toLowerCase()) : null,
  };
}
