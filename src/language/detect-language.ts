/**
 * English or Spanish, from the words of one chat message (deterministic, no model, no network).
 *
 * Evidence: Spanish and English function words and renting vocabulary (language-words.ts), plus
 * Spanish-only marks: ¿ and ¡ count as a word each, ñ and accented vowels half a word per word they
 * appear in. Marks alone never decide: "Juan Pérez" is a name, not a Spanish sentence. One language
 * must lead by at least one word, otherwise the result is 'unknown'.
 *
 * 'unknown' also covers turns that carry no language: "ok", "sí"/"si", "yes", "no", numbers, an
 * email or phone on its own, emoji, punctuation. A single evidence word does decide, though:
 * "gracias", "hola", "mañana" are plainly Spanish and "thanks", "hello" plainly English, so the
 * reply follows them; "ok", "no", "sí" and "yes" are typed by both kinds of speaker and stay neutral.
 *
 * Only the first MAX_CHARS characters are read: a message says which language it is in long before
 * that, and the cost of one chat then stays the same whatever its length (docs/api.md#limits). Addresses
 * are removed token by token (split at white space), in time linear in the text.
 */
import { foldAccents } from '../text/fold-accents.ts';
import { ENGLISH_WORDS, NEUTRAL_WORDS, SPANISH_WORDS } from './language-words.ts';

export type DetectedLanguage = 'en' | 'es' | 'unknown';

const MARGIN = 1;
export const MAX_CHARS = 1000;
const WHITE_SPACE = /\s+/u;
/** Where a web address starts inside a token ("see:https://..." keeps "see:"). */
const URL_START = /\bhttps?:\/\/|\bwww\./iu;
const WORD = /[\p{L}\p{M}]+(?:['’][\p{L}]+)*/gu;
const ACCENTED = /[áéíóúüñ]/iu;

const fold = (word: string): string => foldAccents(word).replace(/’/g, "'");

/** The text without email addresses (a token holding "@") and web addresses (from their start to the token's end). */
function withoutAddresses(text: string): string {
  const kept: string[] = [];
  for (const token of text.split(WHITE_SPACE)) {
    if (token.includes('@')) continue;
    const url = URL_START.exec(token);
    kept.push(url === null ? token : token.slice(0, url.index));
  }
  return kept.join(' ');
}

export function detectLanguage(text: string): DetectedLanguage {
  const cleaned = withoutAddresses(text.slice(0, MAX_CHARS));
  const words = cleaned.match(WORD) ?? [];
  const folded = words.map(fold);
  if (folded.every((w) => NEUTRAL_WORDS.has(w))) return 'unknown';

  let spanish = 0;
  let english = 0;
  for (const word of folded) {
    if (SPANISH_WORDS.has(word)) spanish += 1;
    else if (ENGLISH_WORDS.has(word)) english += 1;
  }
  const inverted = /[¿¡]/u.test(cleaned);
  if (spanish === 0 && english === 0 && !inverted) return 'unknown';

  if (inverted) spanish += 1;
  spanish += 0.5 * words.filter((w) => ACCENTED.test(w)).length;
  if (spanish - english >= MARGIN) return 'es';
  if (english - spanish >= MARGIN) return 'en';
  return 'unknown';
}
