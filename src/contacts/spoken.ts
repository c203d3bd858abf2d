/**
 * Rewrites the ways visitors write phone numbers and addresses out into the usual forms, so that the
 * finders read them: digit words and spaced digits become digit runs ("seven one two ..." and
 * "3 0 5 7 ..." -> "712...", "3057..."), spoken addresses become addresses ("juan at gmail dot com",
 * "maria punto lopez arroba hotmail punto com" -> "juan@gmail.com", "maria.lopez@hotmail.com"), and
 * dialling prefixes become "+" forms (Mexico's "+52 1" and "044"/"045" mobile prefixes, "0034").
 * One pass over the words: linear in the text.
 */
import { fold } from './fold.ts';
import { AT_WORDS, DIAL_OUT_COUNTRY_CODES, DIGIT_WORDS, DOT_WORDS, JOINER_WORDS, MIN_SPOKEN_DIGITS, SPOKEN_TLDS } from './spoken-words.ts';

interface Token { text: string; start: number; end: number; key: string }

// A word, a number, or one other character; "(at)", "[dot]" and their kin are one token.
const TOKEN = /[([](?:at|dot)[)\]]|[\p{L}\p{M}\p{N}._%+'’-]+|\S/giu;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0];
    const key = fold(raw.replace(/^[([](at|dot)[)\]]$/i, '$1'));
    tokens.push({ text: raw, start: m.index, end: m.index + raw.length, key });
  }
  return tokens;
}

interface Edit { start: number; end: number; text: string }

const isDigitWord = (t: Token | undefined): boolean => t !== undefined && DIGIT_WORDS.has(t.key) && t.key !== 'oh';
const isSingleDigit = (t: Token | undefined): boolean => t !== undefined && /^\d$/.test(t.text);
/** Separators a visitor puts between spoken or spaced digits: commas and dashes. */
const isDigitSeparator = (t: Token | undefined): boolean => t !== undefined && (t.text === ',' || t.text === '-' || t.text === '.');

/** Digit words or single digits in a run ("seven one three, four oh two", "9 1 9 - 4 3 3"). */
function digitRunAt(tokens: Token[], i: number, spoken: boolean): { digits: string; next: number } | null {
  let digits = '';
  let j = i;
  let last = i;
  while (j < tokens.length) {
    const t = tokens[j]!;
    if (spoken ? DIGIT_WORDS.has(t.key) && (t.key !== 'oh' || digits !== '') : isSingleDigit(t)) {
      digits += spoken ? DIGIT_WORDS.get(t.key)! : t.text;
      last = j;
      j++;
    } else if (isDigitSeparator(t) && digits !== '' && (spoken ? DIGIT_WORDS.has(tokens[j + 1]?.key ?? '') : isSingleDigit(tokens[j + 1]))) {
      j++;
    } else break;
  }
  return digits.length >= MIN_SPOKEN_DIGITS ? { digits, next: last + 1 } : null;
}

/** The local part spoken before "at": words joined by "dot", "underscore", "guion bajo"; its first token index. */
function localPartBefore(tokens: Token[], at: number): { text: string; first: number } | null {
  let i = at - 1;
  const word = tokens[i];
  if (word === undefined || !/^[\p{L}\p{N}._%+-]+$/u.test(word.text)) return null;
  let local = word.text;
  let first = i;
  for (i--; i >= 1; ) {
    const joinerTwo = i >= 2 ? JOINER_WORDS.get(`${tokens[i - 1]!.key} ${tokens[i]!.key}`) : undefined;
    const joiner = joinerTwo ?? (DOT_WORDS.has(tokens[i]!.key) ? '.' : JOINER_WORDS.get(tokens[i]!.key));
    const span = joinerTwo === undefined ? 1 : 2;
    const before = tokens[i - span];
    if (joiner === undefined || before === undefined || !/^[\p{L}\p{N}._%+-]+$/u.test(before.text)) break;
    local = `${before.text}${joiner}${local}`;
    first = i - span;
    i -= span + 1;
  }
  return { text: local, first };
}

/** The domain spoken after "at": labels joined by "dot"/"punto" (or already dotted), ending in a known TLD. */
function domainAfter(tokens: Token[], at: number): { text: string; last: number } | null {
  const labels: string[] = [];
  let i = at + 1;
  let last = -1;
  let domain: string | null = null;
  while (i < tokens.length && /^[\p{L}\p{N}.-]+$/u.test(tokens[i]!.text)) {
    labels.push(tokens[i]!.text.replace(/\.$/, ''));
    const tld = labels.at(-1)!.split('.').at(-1)!.toLowerCase();
    if (labels.join('.').includes('.') && SPOKEN_TLDS.has(tld)) {
      domain = labels.join('.');
      last = i;
    }
    if (!DOT_WORDS.has(tokens[i + 1]?.key ?? '')) break;
    i += 2;
  }
  return domain === null ? null : { text: domain.toLowerCase(), last };
}

function spokenEmailAt(tokens: Token[], i: number): (Edit & { next: number }) | null {
  const local = localPartBefore(tokens, i);
  const domain = domainAfter(tokens, i);
  if (local === null || domain === null || local.text.includes('@')) return null;
  // Only what was written out: "juan@gmail.com" never reaches here, "juan at gmail.com" does.
  return { start: tokens[local.first]!.start, end: tokens[domain.last]!.end, text: `${local.text}@${domain.text}`, next: domain.last + 1 };
}

/** The text with spoken digits and addresses written as digits and addresses. */
function rewriteSpoken(text: string): string {
  const tokens = tokenize(text);
  const edits: Edit[] = [];
  for (let i = 0; i < tokens.length; ) {
    const t = tokens[i]!;
    if (AT_WORDS.has(t.key)) {
      const email = spokenEmailAt(tokens, i);
      if (email !== null) {
        // The local part's words may already be in an edit (never: digits are not letters), so append.
        edits.push(email);
        i = email.next;
        continue;
      }
    }
    const run = isDigitWord(t) ? digitRunAt(tokens, i, true) : isSingleDigit(t) && isSingleDigit(tokens[i + 1]) ? digitRunAt(tokens, i, false) : null;
    if (run !== null) {
      edits.push({ start: t.start, end: tokens[run.next - 1]!.end, text: run.digits });
      i = run.next;
      continue;
    }
    i++;
  }
  if (edits.length === 0) return text;
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of edits) {
    if (edit.start < at) continue;
    out += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

// Mexico's mobile "1" after +52 ("+52 1 33 1845 2290", "+52 1 664 338 2290"): dropped from
// numbering since 2019. Ten digits follow, in groups of any size (two- and three-digit area codes).
const MEXICAN_MOBILE_ONE = /\+\s?52[\s.-]?1[\s.-]?(?=\d(?:[\s.-]?\d){9}(?![\s.-]?\d))/g;
// The old Mexican mobile prefixes "044" / "045" before a ten-digit number.
const MEXICAN_MOBILE_PREFIX = /(?<![\d+]|\d[\s.-])04[45][\s.-]?(?=\d(?:[\s.-]?\d){9}(?![\s.-]?\d))/g;
// "00" + country code: the international prefix of Europe and Latin America ("0034 612 448 921").
// Not a digit group inside a number ("020 7946 0018"): nothing number-like before, 8+ digits after.
const DIAL_OUT = /(?<![\d.,+]|\d[\s.-])00(\d{1,3})(?=(?:[\s.-]?\d){8})/g;

// "+52 1 (55) 1834 5678", "+52 (33) 1834 5678": brackets around the area code after a country code
// (and Mexico's mobile "1") are dropped, so the number reads as one.
const PLUS_CODE_THEN_BRACKETS = /(\+\s?\d{1,3}[\s.-]?(?:1[\s.-]?)?)\((\d{1,4})\)/g;

function rewriteDialling(text: string): string {
  return text
    .replace(PLUS_CODE_THEN_BRACKETS, '$1$2')
    .replace(MEXICAN_MOBILE_ONE, '+52 ')
    .replace(MEXICAN_MOBILE_PREFIX, '+52 ')
    .replace(DIAL_OUT, (whole, code: string) => {
      // The longest listed country code that the digits start with ("0034" -> 34, "00593" -> 593).
      for (let n = Math.min(3, code.length); n >= 1; n--) {
        if (DIAL_OUT_COUNTRY_CODES.has(code.slice(0, n))) return `+${code.slice(0, n)}${n < code.length ? ' ' : ''}${code.slice(n)}`;
      }
      return whole;
    });
}

/** The text as the finders read it (see the module comment). */
export function normaliseSpoken(text: string): string {
  return rewriteDialling(rewriteSpoken(text));
}
