/**
 * Phone numbers in free text, as E.164 (an extension is never part of it). libphonenumber-js finds
 * every *possible* number (right length for its plan); one is kept when it is valid against the
 * metadata, or when the text marks it as a phone: a cue before it ("call me at", "mi cel es") or a
 * typical phone layout ("(210) 555-0150", "915.555.0188", "2105550150"). Possible-but-unknown
 * numbers matter: the 555-01xx range used in examples, area codes newer than the metadata.
 * Whatever a cue says, digits labelled as something else (unit, floor, price, zip, booking or
 * confirmation id), money, measures, dates and times are never phones. The `max` metadata validates
 * against each region's real number patterns.
 */
import { isSupportedCountry, parsePhoneNumber, searchPhoneNumbersInText, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import { findEmails } from './email.ts';
import { countryHint, isGluedToLetters, isMoneyOrMeasure, labelBefore, labelledAfterAsOther } from './phone-context.ts';
import { isReachableShape, isTypicalLayout } from './phone-layout.ts';

// libphonenumber's matcher gives up after this many rejected candidates. Without the bound a
// 4000-character message of short digit groups ("12 12 12 ...") costs about 300 ms of CPU; real
// messages have a handful of candidates. The options exist at run time but not in the typings.
const MAX_REJECTED_CANDIDATES = 100;
type SearchOptions = { defaultCountry?: CountryCode; maxTries: number; leniency: 'POSSIBLE' };

/** Blank out email addresses (keeping offsets) so digits inside them are never read as a phone. */
function maskEmails(text: string): string {
  let masked = text;
  for (const { start, end } of findEmails(text)) {
    masked = masked.slice(0, start) + ' '.repeat(end - start) + masked.slice(end);
  }
  return masked;
}

// "unit 210) 602 448 1190", "building 2, 773 448 2219": libphonenumber reads a short number, the
// punctuation after it and the phone as one candidate, rejects it and never tries the phone alone.
// A "|" in place of that punctuation (same length, so offsets hold) ends the candidate there.
const SHORT_NUMBER_THEN_PHONE = /(?<![\d.,])(\d{1,6})[,;)\]](?=[ \t]{1,3}\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4}(?![\d-]))/g;

function parseOrNull(digits: string, country?: CountryCode): PhoneNumber | null {
  try {
    return parsePhoneNumber(digits, country);
  } catch {
    return null;
  }
}

/**
 * The number read in the plan of a country named beside it ("55 1234 5678 de México", "(+52)"),
 * when that reading is valid and the default region's is not valid or not laid out like one.
 */
function readInNamedCountry(text: string, start: number, end: number, number: PhoneNumber): PhoneNumber | null {
  const hint = countryHint(text, start, end);
  if (hint === null || number.isValid() && isTypicalLayout(text.slice(start, end), number)) return null;
  const national = number.nationalNumber;
  const other = 'callingCode' in hint ? parseOrNull(`+${hint.callingCode}${national}`) : parseOrNull(national, hint.country);
  return other !== null && other.isValid() ? other : null;
}

// Reading a candidate costs up to about 1 ms of CPU (parsing, validation, its surroundings): a
// message made of hundreds of digit groups is read only this far.
const MAX_PHONES = 10;
const MAX_CANDIDATES = 20;

/** The E.164 number of one candidate the matcher found, or null when it is not a phone. */
function phoneAt(masked: string, start: number, end: number, number: PhoneNumber): string | null {
  if (isGluedToLetters(masked, start, end) || isMoneyOrMeasure(masked, start, end)) return null;
  const label = labelBefore(masked, start);
  if (label === 'not-phone' || labelledAfterAsOther(masked, end)) return null;
  const named = readInNamedCountry(masked, start, end, number);
  if (named !== null) return named.number;
  if (!isReachableShape(number)) return null;
  return number.isValid() || label === 'phone' || isTypicalLayout(masked.slice(start, end), number) ? number.number : null;
}

export interface PhoneMatch { phone: string; start: number; end: number }

/** The phone numbers in the text, in order, as E.164 with where they were written (at most `limit`). */
export function findPhoneMatches(text: string, defaultRegion: CountryCode, limit = MAX_PHONES): PhoneMatch[] {
  const masked = maskEmails(text);
  const found: PhoneMatch[] = [];
  // An unsupported region would make libphonenumber throw: then only "+<country>" numbers are read.
  const options: SearchOptions = isSupportedCountry(defaultRegion)
    ? { defaultCountry: defaultRegion, maxTries: MAX_REJECTED_CANDIDATES, leniency: 'POSSIBLE' }
    : { maxTries: MAX_REJECTED_CANDIDATES, leniency: 'POSSIBLE' };
  let candidates = 0;
  const separated = masked.replace(SHORT_NUMBER_THEN_PHONE, '$1|');
  for (const match of searchPhoneNumbersInText(separated, options as { defaultCountry?: CountryCode })) {
    const phone = phoneAt(masked, match.startsAt, match.endsAt, match.number);
    if (phone !== null) found.push({ phone, start: match.startsAt, end: match.endsAt });
    if (found.length >= limit || ++candidates >= MAX_CANDIDATES) break;
  }
  return found;
}

/** The phone numbers in the text, in order, as E.164 (at most `limit`). */
export function findPhones(text: string, defaultRegion: CountryCode, limit = MAX_PHONES): string[] {
  return findPhoneMatches(text, defaultRegion, limit).map((m) => m.phone);
}

/** The first phone number in the text as E.164, or null. */
export function findPhone(text: string, defaultRegion: CountryCode): string | null {
  return findPhones(text, defaultRegion, 1)[0] ?? null;
}
