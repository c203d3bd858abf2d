/**
 * Reads a person's name that starts at a given offset of a message ("...my name is |maria lopez,
 * and..."), word by word, and returns it capitalised sensibly, or null when the words there are not a
 * name ("I'm |interested", "soy |estudiante").
 */
import { NOT_A_NAME, PARTICLES, SUFFIXES, TITLES } from './contact-name-words.ts';
import { fold, isKnownName, isOtherKnownWord } from './contact-name-lexicon.ts';

const MAX_NAME_WORDS = 4;
// One word: letters (accents included) joined by apostrophes or hyphens, then an optional full stop.
const WORD = /[ \t]*([\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*)(\.)?/uy;

interface Word { text: string; folded: string; dot: boolean; end: number }

function wordsFrom(text: string, start: number): Word[] {
  const words: Word[] = [];
  WORD.lastIndex = start;
  for (let m = WORD.exec(text); m !== null && words.length < MAX_NAME_WORDS + 3; m = WORD.exec(text)) {
    const word = m[1] ?? '';
    words.push({ text: word, folded: fold(word), dot: m[2] !== undefined, end: WORD.lastIndex });
    // Anything but spaces between words (a comma, a dash, a digit) ends the name.
    if (m[2] === undefined && !/^[ \t]/.test(text.slice(WORD.lastIndex))) break;
  }
  return words;
}

// A capital means something only in mixed case: in "THIS IS URGENT" every word has one.
const isCapitalised = (word: string): boolean => /^\p{Lu}/u.test(word) && word !== word.toUpperCase();

/** Blocked words, also with an English contraction ("what's" -> "what"; "O'Brien" is not one). */
const blocked = (folded: string): boolean =>
  NOT_A_NAME.has(folded) || NOT_A_NAME.has(folded.replace(/['’](?:s|re|m|ll|d|ve|t)$/, ''));

/** Could this word be part of a name? `strong`: the cue was unambiguous ("my name is"). */
function nameLike(word: Word, strong: boolean, continuing: boolean): boolean {
  if (word.folded.length < 2 || blocked(word.folded)) return false;
  if (isKnownName(word.text)) return true;
  // After a first name, a capitalised word is a surname even when it is also a common word
  // ("Tom Baker", "David Brown", "Carlos Mendoza").
  if (continuing && isCapitalised(word.text)) return true;
  if (isOtherKnownWord(word.text)) return false;
  return strong || isCapitalised(word.text);
}

/** "maria" -> "Maria", "o'brien" -> "O'Brien", "MARY-KATE" -> "Mary-Kate"; mixed case kept as written. */
function capitalise(word: string, particle: boolean): string {
  const mixed = word !== word.toLowerCase() && word !== word.toUpperCase();
  if (mixed) return word;
  if (particle) return word.toLowerCase();
  return word.toLowerCase().replace(/(^|['’-])(\p{L})/gu, (_s, sep: string, ch: string) => sep + ch.toUpperCase());
}

function formatSuffix(word: Word): string {
  return word.folded.startsWith('i') ? word.text.toUpperCase() : `${capitalise(word.text, false)}${word.dot ? '.' : ''}`;
}

/**
 * The name starting at `start`, or null. `strong` cues accept lower-case words ("my name is maria
 * lopez"); weak cues need a known name or a capitalised word that is not some other known word.
 * `capitalisedOnly` demands a capital on every name word (signatures, "Jennifer here").
 */
export interface NameFound { name: string; end: number }

export function readNameAt(text: string, start: number, strong: boolean, capitalisedOnly = false): NameFound | null {
  const words = wordsFrom(text, start);
  let i = 0;
  // Skip titles, but only when a name follows ("Dr. Amanda Ruiz"; "this is Don" keeps "Don").
  while (i + 1 < words.length && TITLES.has(words[i]!.folded) && nameLike(words[i + 1]!, strong, false)) i++;
  const parts: string[] = [];
  let end = start;
  for (; i < words.length && parts.length < MAX_NAME_WORDS; i++) {
    const word = words[i]!;
    const previous = words[i - 1];
    if (parts.length > 0 && previous !== undefined && previous.dot && !TITLES.has(previous.folded)) break;
    const ok = (w: Word): boolean => nameLike(w, strong, parts.length > 0) && (!capitalisedOnly || isCapitalised(w.text));
    if (parts.length > 0 && SUFFIXES.has(word.folded) && (isCapitalised(word.text) || word.dot)) {
      parts.push(formatSuffix(word));
      end = word.end;
      break;
    }
    if (parts.length > 0 && PARTICLES.has(word.folded)) {
      // "de la Cruz": take the particles only when a name word follows them.
      let j = i;
      while (j < words.length && PARTICLES.has(words[j]!.folded) && !words[j]!.dot) j++;
      const next = words[j];
      if (next === undefined || !isCapitalised(next.text) || !ok(next)) break;
      for (; i < j; i++) parts.push(capitalise(words[i]!.text, true));
      i--;
      continue;
    }
    if (!ok(word)) break;
    parts.push(capitalise(word.text, false));
    end = word.end - (word.dot ? 1 : 0);
  }
  return parts.length > 0 ? { name: parts.join(' '), end } : null;
}
