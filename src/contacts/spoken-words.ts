/**
 * Words that stand for characters when visitors write numbers and addresses out ("seven one two",
 * "ocho uno", "juan at gmail dot com", "maria arroba hotmail punto com"). Compared lower-cased and
 * without accents. Kept as data: each list is checked by test/contacts/contact-spoken.test.ts.
 */

/** Digit words, English and Spanish. "oh" counts only inside a run of other digit words. */
export const DIGIT_WORDS: ReadonlyMap<string, string> = new Map([
  ['zero', '0'], ['oh', '0'], ['one', '1'], ['two', '2'], ['three', '3'], ['four', '4'], ['five', '5'],
  ['six', '6'], ['seven', '7'], ['eight', '8'], ['nine', '9'],
  ['cero', '0'], ['uno', '1'], ['dos', '2'], ['tres', '3'], ['cuatro', '4'], ['cinco', '5'],
  ['seis', '6'], ['siete', '7'], ['ocho', '8'], ['nueve', '9'],
]);

/** A run of digit words shorter than this is prose ("one or two bedrooms"), not a number. */
export const MIN_SPOKEN_DIGITS = 7;

/** "at" / "arroba", also written "(at)" or "[at]". */
export const AT_WORDS: ReadonlySet<string> = new Set(['at', 'arroba']);

/** "dot" / "punto" between the labels of an address. */
export const DOT_WORDS: ReadonlySet<string> = new Set(['dot', 'punto']);

/** Joiners inside the local part: one word ("underscore") or two ("guion bajo"). */
export const JOINER_WORDS: ReadonlyMap<string, string> = new Map([
  ['underscore', '_'], ['guion bajo', '_'], ['dash', '-'], ['hyphen', '-'], ['guion', '-'],
]);

/**
 * Top-level labels an address written in words may end with. Only these: "we looked at the unit
 * dot com website" must not become an address, and a spoken address nearly always ends in one.
 */
export const SPOKEN_TLDS: ReadonlySet<string> = new Set([
  'com', 'net', 'org', 'edu', 'gov', 'mil', 'us', 'mx', 'es', 'co', 'io', 'me', 'info', 'biz', 'ar', 'cl',
  'pe', 've', 'ec', 'uk', 'ca', 'de', 'fr', 'br',
]);

/** International dialling prefix "00" is read as "+" only before these country codes (1 to 3 digits). */
export const DIAL_OUT_COUNTRY_CODES: ReadonlySet<string> = new Set([
  '1', '34', '52', '57', '51', '54', '56', '58', '53', '593', '502', '503', '504', '505', '506', '507',
  '591', '595', '598', '44', '33', '49', '39', '55',
]);
