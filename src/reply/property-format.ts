/**
 * Formatting pieces shared by the property answers: money, counts, room descriptions, dates and
 * times. Amounts use US conventions in both languages ("$1,450", "1,100 sq ft"), as the properties
 * are priced in US dollars and US Spanish writes them the same way.
 */
export type Lang = 'en' | 'es';

const LOCALE: Record<Lang, string> = { en: 'en-US', es: 'es-US' };
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const cents = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

/** "$1,450"; cents only when there are some ("$1,450.50"). */
export function money(amount: number): string {
  return Number.isInteger(amount) ? dollars.format(amount) : cents.format(amount);
}

export const count = (n: number): string => whole.format(n);

/** "studio" / "1 bedroom" / "2 bedrooms" (es: "estudio" / "1 habitación" / "2 habitaciones"). */
export function bedrooms(n: number, lang: Lang): string {
  if (n <= 0) return lang === 'es' ? 'estudio' : 'studio';
  const noun = lang === 'es' ? (n === 1 ? 'habitación' : 'habitaciones') : (n === 1 ? 'bedroom' : 'bedrooms');
  return `${decimal.format(n)} ${noun}`;
}

/** "1 bath" / "1.5 baths" (es: "1 baño" / "1.5 baños"); empty when unknown (0 or less). */
export function bathrooms(n: number, lang: Lang): string {
  if (n <= 0) return '';
  const noun = lang === 'es' ? (n === 1 ? 'baño' : 'baños') : (n === 1 ? 'bath' : 'baths');
  return `${decimal.format(n)} ${noun}`;
}

/** "750 sq ft" (es: "750 pies cuadrados"); empty when unknown. */
export function area(sqft: number, lang: Lang): string {
  if (sqft <= 0) return '';
  return `${whole.format(sqft)} ${lang === 'es' ? 'pies cuadrados' : 'sq ft'}`;
}

/** A "month" amount: "$1,450 a month" / "$1,450 al mes". */
export const perMonth = (text: string, lang: Lang): string => `${text} ${lang === 'es' ? 'al mes' : 'a month'}`;

/** True for a zone Intl knows: an IANA name ("America/Chicago") or a UTC offset ("-05:00"). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false; // Intl rejects an unknown zone with a RangeError
  }
}

/** A zone from data (an offset the property API wrote): a bad one falls back to UTC, never throws. */
export function safeTimeZone(timeZone: string | undefined): string {
  return timeZone !== undefined && isTimeZone(timeZone) ? timeZone : 'UTC';
}

// ICU puts narrow / no-break spaces in times ("10:00 AM"); plain spaces keep replies predictable.
const plainSpaces = (text: string): string => text.replace(/[\u202f\u00a0]/g, ' ');

/** The calendar day of an instant in a zone, as "2025-03-15" (for comparing days). */
export function dayKey(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** "Saturday, March 15" / "sábado, 15 de marzo"; the year is added when it is not `now`'s year. */
export function longDay(date: Date, lang: Lang, timeZone: string, now: Date): string {
  const withYear = dayKey(date, timeZone).slice(0, 4) !== dayKey(now, timeZone).slice(0, 4);
  const options: Intl.DateTimeFormatOptions = { timeZone, weekday: 'long', month: 'long', day: 'numeric', ...(withYear ? { year: 'numeric' } : {}) };
  return plainSpaces(new Intl.DateTimeFormat(LOCALE[lang], options).format(date));
}

/** "March 15" / "15 de marzo" (with the year when it differs from `now`'s). */
export function shortDay(date: Date, lang: Lang, timeZone: string, now: Date): string {
  const withYear = dayKey(date, timeZone).slice(0, 4) !== dayKey(now, timeZone).slice(0, 4);
  const options: Intl.DateTimeFormatOptions = { timeZone, month: 'long', day: 'numeric', ...(withYear ? { year: 'numeric' } : {}) };
  return plainSpaces(new Intl.DateTimeFormat(LOCALE[lang], options).format(date));
}

/** "10:00 AM" / "10:00 a.m." */
export function clock(date: Date, lang: Lang, timeZone: string): string {
  return plainSpaces(new Intl.DateTimeFormat(LOCALE[lang], { timeZone, hour: 'numeric', minute: '2-digit' }).format(date));
}

/** "a, b, and c" / "a, b y c". */
export function joinAnd(items: string[], lang: Lang): string {
  return new Intl.ListFormat(LOCALE[lang], { type: 'conjunction' }).format(items);
}

/** A date-only value ("2025-03-01") or a full timestamp, or null when it does not parse. */
export function parseDate(value: string): { date: Date; dateOnly: boolean } | null {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value.trim());
  const date = new Date(dateOnly ? `${value.trim()}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? null : { date, dateOnly };
}
