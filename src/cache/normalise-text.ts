/**
 * Text normalisation shared by the similarity measure and the question guards.
 *
 * Decisions (docs/api.md#session-cache: case, punctuation and spacing alone must not prevent a cache hit):
 * - case is folded, punctuation becomes a word break, runs of white space collapse;
 * - accents are removed ("¿Qué?" == "que"): visitors on phones often skip them, and the guards below
 *   compare accent-free words too, so a Spanish accent never splits or joins two questions;
 * - English contractions are expanded, with or without the apostrophe ("don't" == "dont" == "do not"),
 *   so that a negation is always visible to the guard as the word "not";
 * - digits glued to letters are split ("2br" -> "2 br", "3pm" -> "3 pm") so numbers and units are words;
 * - numbers are canonical: thousands separators dropped ("1,500" == "1.500" == "1500"), a decimal
 *   comma becomes a point ("1,5" == "1.5"), leading zeros dropped ("05" == "5").
 */
import { foldAccents } from '../text/fold-accents.ts';

// A Map, not an object literal: a visitor's word is data, and "constructor" must not find
// Object.prototype.constructor (docs/api.md#limits).
const GLUED_CONTRACTIONS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    dont: 'do not', doesnt: 'does not', didnt: 'did not', isnt: 'is not', arent: 'are not',
    wasnt: 'was not', werent: 'were not', cant: 'can not', cannot: 'can not', wont: 'will not',
    havent: 'have not', hasnt: 'has not', hadnt: 'had not', shouldnt: 'should not',
    wouldnt: 'would not', couldnt: 'could not', mustnt: 'must not', aint: 'is not',
  }).map(([glued, expanded]) => [glued, expanded.split(' ')]),
);

/** A word is a run of letters; a number is digits with optional `.`/`,` groups. */
const TOKEN = /\p{L}+|\d+(?:[.,]\d+)*/gu;
const THOUSANDS = /^\d{1,3}(?:[.,]\d{3})+$/;

function stripLeadingZeros(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

/** "500" from "5000": a loop, as `/0+$/` retries from every zero of a long run (quadratic). */
function dropTrailingZeros(digits: string): string {
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end -= 1;
  return digits.slice(0, end);
}

function canonicalNumber(raw: string): string {
  if (THOUSANDS.test(raw)) return stripLeadingZeros(raw.replace(/[.,]/g, ''));
  const decimal = /^(\d+)[.,](\d+)$/.exec(raw);
  if (decimal) {
    const fraction = dropTrailingZeros(decimal[2] ?? '');
    const whole = stripLeadingZeros(decimal[1] ?? '0');
    return fraction === '' ? whole : `${whole}.${fraction}`;
  }
  // Plain integers (string arithmetic: a 20-digit number must not round); "12.05.2025" keeps its parts, each without leading zeros.
  return raw.split(/[.,]/).map(stripLeadingZeros).join('.');
}

/** Normalised words of a text, in order. */
export function normalisedTokens(text: string): string[] {
  // Apostrophes first: NFKD turns the acute accent ´ into a space and a combining mark, which would
  // split "isn´t" into "isn t" and hide its negation from the guards.
  const folded = foldAccents(text.replace(/[’`´]/g, "'"))
    .replace(/\bcan't\b/g, 'can not')
    .replace(/\bwon't\b/g, 'will not')
    .replace(/n't\b/g, ' not')
    .replace(/(\d)(\p{L})/gu, '$1 $2')
    .replace(/(\p{L})(\d)/gu, '$1 $2');
  const tokens: string[] = [];
  for (const match of folded.matchAll(TOKEN)) {
    const token = match[0];
    if (/^\d/.test(token)) {
      tokens.push(canonicalNumber(token));
      continue;
    }
    const expanded = GLUED_CONTRACTIONS.get(token);
    if (expanded === undefined) tokens.push(token);
    else tokens.push(...expanded);
  }
  return tokens;
}
