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
import { ID_WORDS, labelOf } from './phone-words.ts';
import { fold } from './fold.ts';
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
// "apt 12 713 448 2290", "lot 12 space 4 281 ...", "#12 832 ...", "at 12:30 713 ...": the short number
// is followed by spaces only. The space after it becomes a "|" unless the short number is a trunk
// "1", follows a "+" or an id's label ("ticket 57 310 ..."), is the calling code of a number read
// as international after a cue (INTERNATIONAL_WITHOUT_PLUS), or, with no label before it, makes a
// valid international number with the phone ("57 310 558 2291" is Colombian, not a US number).
const SHORT_NUMBER_SPACE_PHONE = /(?<![\d.,+])(\d{1,6})[ \t](?=[ \t]{0,2}(\(?\d{3}\)?[ .-]?\d{3}[ .-]?\d{4})(?![\d-]))/g;
// Digit groups that may be an international number written without its "+" ("52 1 33 1829 4471",
// "57 310 558 2291", "34 612 345 678") or a foreign national one ("612 34 56 78" de España): read so
// only after a phone cue (internationalAt).
const INTERNATIONAL_WITHOUT_PLUS = /(?<![\d+\p{L}_.,/-])\d{2,4}(?:[ .-]\d{1,4}){2,6}(?![\d\p{L}_]|[.,/-]\d)/gu;

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

const digitsOf = (written: string): string => written.replace(/\D/g, '');

/**
 * After a phone cue, digits the default region cannot read: an international number without its
 * "+" ("whatsapp 57 310 558 2291"), or a national number of a country named beside it ("mi número
 * de España 612 34 56 78").
 */
function internationalAt(masked: string, start: number, written: string, defaultRegion: CountryCode): PhoneNumber | null {
  // Mexico's old mobile "1" after the country code ("52 1 33 1829 4471", "521 81 ...") is dropped.
  const digits = digitsOf(written).replace(/^521(?=\d{10}$)/, '52');
  if (digits.length < 8 || digits.length > 15 || digits.startsWith('0')) return null;
  if (labelBefore(masked, start) !== 'phone') return null;
  const domestic = isSupportedCountry(defaultRegion) ? parseOrNull(digits, defaultRegion) : null;
  if (domestic !== null && domestic.isValid()) return null;
  const international = digits.length >= 11 && !digits.startsWith('1') ? parseOrNull(`+${digits}`) : null;
  if (international !== null && international.isValid()) return international;
  const hint = countryHint(masked, start, start + written.length);
  const national = hint !== null && 'country' in hint ? parseOrNull(digits, hint.country) : null;
  return national !== null && national.isValid() ? national : null;
}

/** International numbers written without "+" after a phone cue ("mi whats 52 1 33 1829 4471"). */
function findInternationalWithoutPlus(masked: string, defaultRegion: CountryCode): PhoneMatch[] {
  const found: PhoneMatch[] = [];
  let seen = 0;
  for (const m of masked.matchAll(INTERNATIONAL_WITHOUT_PLUS)) {
    if (++seen > MAX_CANDIDATES) break;
    const number = internationalAt(masked, m.index, m[0], defaultRegion);
    if (number !== null) found.push({ phone: number.number, start: m.index, end: m.index + m[0].length });
  }
  return found;
}

const LETTER = /[\p{L}\p{M}]/u;

/** The word right before `at`, past spaces and a "#" ("ticket 57 ...", "order # 12 ..."), read backwards without a pattern. */
function wordBefore(text: string, at: number): string {
  let end = at;
  while (end > 0 && at - end < 4 && (text[end - 1] === ' ' || text[end - 1] === '\t' || text[end - 1] === '#')) end--;
  let start = end;
  while (start > 0 && end - start < 30 && LETTER.test(text[start - 1]!)) start--;
  return text.slice(start, end);
}

/** An id's label ("ticket", "order", "confirmation") right before: the digits after it are all the id's. */
function afterIdLabel(masked: string, at: number): boolean {
  return ID_WORDS.has(fold(wordBefore(masked, at)).replace(/['’]s$/u, ''));
}

/** Splits a short number from the phone after it (see SHORT_NUMBER_SPACE_PHONE), offsets kept. */
function separateShortNumbers(masked: string, international: readonly PhoneMatch[]): string {
  const inInternational = (at: number): boolean => international.some((p) => at >= p.start && at < p.end);
  let seen = 0;
  return masked
    .replace(SHORT_NUMBER_THEN_PHONE, '$1|')
    .replace(SHORT_NUMBER_SPACE_PHONE, (whole: string, short: string, rest: string, at: number) => {
      // Like the candidates, only the first few are weighed (each may parse a number); the rest stay as written.
      if (++seen > MAX_CANDIDATES) return whole;
      return short === '1' || inInternational(at) || afterIdLabel(masked, at) || (!afterLabel(masked, at) && isInternational(short, rest)) ? whole : `${short}|`;
    });
}

/** A label of something else or a "#" right before `at` ("apt 12", "#12", "lot 12", "12:30"). */
function afterLabel(masked: string, at: number): boolean {
  const before = masked[at - 1];
  if (before === '#' || before === ':' || before === '/') return true;
  return labelOf(fold(wordBefore(masked, at))) === 'not-phone';
}

/** `short` and `rest` together are a valid number read with a "+" ("57" + "310 558 2291"). */
function isInternational(short: string, rest: string): boolean {
  return parseOrNull(`+${short}${digitsOf(rest)}`)?.isValid() === true;
}

/** The phone numbers in the text, in order, as E.164 with where they were written (at most `limit`). */
export function findPhoneMatches(text: string, defaultRegion: CountryCode, limit = MAX_PHONES): PhoneMatch[] {
  const masked = maskEmails(text);
  const found: PhoneMatch[] = [];
  // An unsupported region would make libphonenumber throw: then only "+<country>" numbers are read.
  const options: SearchOptions = isSupportedCountry(defaultRegion)
    ? { defaultCountry: defaultRegion, maxTries: MAX_REJECTED_CANDIDATES, leniency: 'POSSIBLE' }
    : { maxTries: MAX_REJECTED_CANDIDATES, leniency: 'POSSIBLE' };
  let candidates = 0;
  const international = findInternationalWithoutPlus(masked, defaultRegion);
  const separated = separateShortNumbers(masked, international);
  for (const match of searchPhoneNumbersInText(separated, options as { defaultCountry?: CountryCode })) {
    // A number already read as international is not read again in the default region.
    const readAlready = international.some((p) => match.startsAt < p.end && match.endsAt > p.start);
    const phone = readAlready ? null : phoneAt(masked, match.startsAt, match.endsAt, match.number);
    if (phone !== null) found.push({ phone, start: match.startsAt, end: match.endsAt });
    if (found.length >= limit || ++candidates >= MAX_CANDIDATES) break;
  }
  if (international.length === 0) return found;
  return [...found, ...international].sort((a, b) => a.start - b.start).slice(0, limit);
}

/** The phone numbers in the text, in order, as E.164 (at most `limit`). */
export function findPhones(text: string, defaultRegion: CountryCode, limit = MAX_PHONES): string[] {
  return findPhoneMatches(text, defaultRegion, limit).map((m) => m.phone);
}

/** The first phone number in the text as E.164, or null. */
export function findPhone(text: string, defaultRegion: CountryCode): string | null {
  return findPhones(text, defaultRegion, 1)[0] ?? null;
}
