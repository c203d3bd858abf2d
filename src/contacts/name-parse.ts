/**
 * Reads a person's name that starts at a given offset of a message ("...my name is |maria lopez,
 * and..."), word by word, and returns it capitalised sensibly, or null when the words there are not a
 * name ("I'm |interested", "soy |estudiante").
 */
import { NOT_A_NAME, PARTICLES, SUFFIXES, TITLES } from './name-words.ts';
import { fold, isKnownName, isOtherKnownWord, isPlaceName } from './name-lexicon.ts';

const MAX_NAME_WORDS = 4; // particles ("de la") not counted
// One word: letters (accents included) joined by apostrophes or hyphens, then an optional full stop.
const WORD = /[ \t]*([\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*)(\.)?/uy;

interface Word { text: string; folded: string; dot: boolean; end: number }

function wordsFrom(text: string, start: number): Word[] {
  const words: Word[] = [];
  WORD.lastIndex = start;
  for (let m = WORD.exec(text); m !== null && words.length < MAX_NAME_WORDS + 6; m = WORD.exec(text)) {
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

// Endings of the adjectives, demonyms and job titles that follow "I'm" / "soy" capitalised ("Soy
// Venezolana", "Soy Ingeniero", "I'm Catholic", "This is Management"); checked only on words the
// lexicon does not know as names.
const COMMON_WORD_ENDING = /.{3}(?:ano|ana|ense|eno|ena|ero|era|ista|ico|ica|ado|ada|ido|ida|oso|osa|ment|ville|ing|ed|ic|ous|ful|less|able|ible|ive|ist)$/;

/** Could this word be part of a name? `strong`: the cue was unambiguous ("my name is"). */
function nameLike(word: Word, strong: boolean, continuing: boolean): boolean {
  if (word.folded.length < 2 || blocked(word.folded)) return false;
  if (isKnownName(word.text)) return true;
  // After a first name, a capitalised word is a surname even when it is also a common word
  // ("Tom Baker", "David Brown", "Carlos Mendoza").
  if (continuing && isCapitalised(word.text)) return true;
  if (strong) return !isOtherKnownWord(word.text) || isPlaceName(word.text);
  if (!isCapitalised(word.text)) return false;
  if (isOtherKnownWord(word.text)) return isPlaceName(word.text);
  return !COMMON_WORD_ENDING.test(word.folded);
}

/** "Maria's" (husband): the name that follows is someone else's relation, not the writer's. */
const isPossessive = (word: Word): boolean => /['’]s$/i.test(word.text);

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

export interface NameFound { name: string; end: number }

/**
 * The name starting at `start`, or null. `strong` cues accept lower-case words ("my name is maria
 * lopez"); weak cues need a known name or a capitalised word that is not some other known word.
 * `capitalisedOnly` demands a capital on every name word (signatures, "Jennifer here").
 */
export function readNameAt(text: string, start: number, strong: boolean, capitalisedOnly = false): NameFound | null {
  const words = wordsFrom(text, start);
  let i = 0;
  // Skip titles, but only when a name follows ("Dr. Amanda Ruiz"; "this is Don" keeps "Don").
  while (i + 1 < words.length && TITLES.has(words[i]!.folded) && nameLike(words[i + 1]!, strong, false)) i++;
  const parts: string[] = [];
  let end = start;
  let nameWords = 0;
  for (; i < words.length && nameWords < MAX_NAME_WORDS; i++) {
    const word = words[i]!;
    if (isPossessive(word)) return null;
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
      while (j < words.length && j - i < 3 && PARTICLES.has(words[j]!.folded) && !words[j]!.dot) j++;
      const next = words[j];
      if (next === undefined || !isCapitalised(next.text) || !ok(next)) break;
      for (; i < j; i++) parts.push(capitalise(words[i]!.text, true));
      i--;
      continue;
    }
    if (!ok(word)) break;
    parts.push(capitalise(word.text, false));
    nameWords++;
    end = word.end - (word.dot ? 1 : 0);
  }
  return parts.length > 0 ? { name: parts.join(' '), end } : null;
}
