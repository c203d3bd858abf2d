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

const GLUED_CONTRACTIONS: Readonly<Record<string, string>> = {
  dont: 'do not', doesnt: 'does not', didnt: 'did not', isnt: 'is not', arent: 'are not',
  wasnt: 'was not', werent: 'were not', cant: 'can not', cannot: 'can not', wont: 'will not',
  havent: 'have not', hasnt: 'has not', hadnt: 'had not', shouldnt: 'should not',
  wouldnt: 'would not', couldnt: 'could not', mustnt: 'must not', aint: 'is not',
};

/** A word is a run of letters; a number is digits with optional `.`/`,` groups. */
const TOKEN = /\p{L}+|\d+(?:[.,]\d+)*/gu;
const THOUSANDS = /^\d{1,3}(?:[.,]\d{3})+$/;

function stripLeadingZeros(digits: string): string {
  return digits.replace(/^0+(?=\d)/, '');
}

function canonicalNumber(raw: string): string {
  if (THOUSANDS.test(raw)) return stripLeadingZeros(raw.replace(/[.,]/g, ''));
  const decimal = /^(\d+)[.,](\d+)$/.exec(raw);
  if (decimal) {
    const fraction = (decimal[2] ?? '').replace(/0+$/, '');
    const whole = stripLeadingZeros(decimal[1] ?? '0');
    return fraction === '' ? whole : `${whole}.${fraction}`;
  }
  // Plain integers (string arithmetic: a 20-digit number must not round); "12.05.2025" kept as written.
  return raw.split(/[.,]/).map(stripLeadingZeros).join('.');
}

/** Normalised words of a text, in order. */
export function normalisedTokens(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[’`´]/g, "'")
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
    const expanded = GLUED_CONTRACTIONS[token];
    if (expanded === undefined) tokens.push(token);
    else tokens.push(...expanded.split(' '));
  }
  return tokens;
}
