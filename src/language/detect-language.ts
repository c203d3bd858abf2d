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
 */
import { ENGLISH_WORDS, NEUTRAL_WORDS, SPANISH_WORDS } from './language-words.ts';

export type DetectedLanguage = 'en' | 'es' | 'unknown';

const MARGIN = 1;
const EMAIL_OR_URL = /\S+@\S+|\bhttps?:\/\/\S+|\bwww\.\S+/giu;
const WORD = /[\p{L}\p{M}]+(?:['’][\p{L}]+)*/gu;
const ACCENTED = /[áéíóúüñ]/iu;

const fold = (word: string): string => word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/’/g, "'");

export function detectLanguage(text: string): DetectedLanguage {
  const cleaned = text.replace(EMAIL_OR_URL, ' ');
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
