/**
 * Phone numbers in free text, as E.164. libphonenumber-js does the finding and validation; the `max`
 * metadata is used because it validates against each region's real number patterns (the `min` set
 * only checks lengths and leading digits, so more digit runs from prices or IDs pass as "valid").
 */
import { findPhoneNumbersInText, isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { findEmails } from './email.ts';

// NANP 555-0100..555-0199 is reserved for fiction: libphonenumber calls it valid, but nobody can be
// reached there, so it is reported like any other invalid number (not at all).
const FICTIONAL_NANP = /^\+1\d{3}55501\d{2}$/;

// Belt and braces over libphonenumber's own leniency: a digit run written as money or an area is
// never a phone, whatever its length ("$2125550147", "3054827719 sq ft").
const MONEY_BEFORE = /[$€£]\s*$/;
const MEASURE_AFTER = /^\s*(?:sq\.?\s*f(?:ee)?t|sqft|ft2|m2|pies|\/\s*mo|per\s+month|a\s+month|al\s+mes|usd|dollars|d[oó]lares)\b/i;

// libphonenumber's matcher gives up after this many invalid candidates. Without the bound a
// 4000-character message of short digit groups ("12 12 12 ...") costs about 300 ms of CPU; real
// messages have a handful of candidates. The option exists at run time but not in the typings.
const MAX_INVALID_CANDIDATES = 100;
type SearchOptions = { defaultCountry?: CountryCode; maxTries: number };

/** Blank out email addresses (keeping offsets) so digits inside them are never read as a phone. */
function maskEmails(text: string): string {
  let masked = text;
  for (const { start, end } of findEmails(text)) {
    masked = masked.slice(0, start) + ' '.repeat(end - start) + masked.slice(end);
  }
  return masked;
}

/** Every valid phone number in the text, in order, as E.164. */
export function findPhones(text: string, defaultRegion: CountryCode): string[] {
  const masked = maskEmails(text);
  const found: string[] = [];
  // An unsupported region would make libphonenumber throw: then only "+<country>" numbers are read.
  const options: SearchOptions = isSupportedCountry(defaultRegion)
    ? { defaultCountry: defaultRegion, maxTries: MAX_INVALID_CANDIDATES }
    : { maxTries: MAX_INVALID_CANDIDATES };
  for (const match of findPhoneNumbersInText(masked, options as { defaultCountry?: CountryCode })) {
    const e164 = match.number.number;
    if (!match.number.isValid() || FICTIONAL_NANP.test(e164)) continue;
    if (MONEY_BEFORE.test(masked.slice(0, match.startsAt))) continue;
    if (MEASURE_AFTER.test(masked.slice(match.endsAt))) continue;
    found.push(e164);
  }
  return found;
}

/** The first valid phone number in the text as E.164, or null. */
export function findPhone(text: string, defaultRegion: CountryCode): string | null {
  return findPhones(text, defaultRegion)[0] ?? null;
}
