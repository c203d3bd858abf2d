/**
 * One word of a possible name: whether it can be part of a person's name after a given kind of cue,
 * and how it is written out (title case for words typed all lower or all upper case).
 */
import { fold } from './fold.ts';
import { isKnownName, isOtherKnownWord, isPlaceName } from './name-lexicon.ts';
import { PHONE_WORDS } from './phone-words.ts';
import { DATE_NAMES, NOT_A_NAME, NOT_A_NAME_AFTER_INTRO, PARTICLES, SPANISH_WORD_NAMES, TITLES, VIETNAMESE_FAMILY, WORD_NAMES } from './name-words.ts';

/**
 * How much the words before promise a name. `strong` ("my name is", "me llamo", "Name:"): any
 * plausible word, lower case included. `weak` ("I'm", "soy"): known names in any case, capitalised
 * words that are not some other word, and lower-case words no list knows ("soy xiomara"), if the
 * name then visibly ends. `known`: like `weak` without lower-case guesses ("this is", "it's",
 * "habla": "this is crazy"). `capitalised`: every word with a capital (signatures, "Jennifer here",
 * entities).
 */
export type NameCue = 'strong' | 'weak' | 'known' | 'capitalised';

export interface Word { text: string; folded: string; dot: boolean; end: number }

const MAX_WORDS_READ = 10;
// One word: letters (accents included) joined by apostrophes or hyphens, then an optional full stop.
const WORD = /[ \t]*([\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*)(\.)?/uy;

/** The words from `start` on, up to the first separator other than spaces (a comma, a digit). */
export function wordsFrom(text: string, start: number): Word[] {
  const words: Word[] = [];
  WORD.lastIndex = start;
  for (let m = WORD.exec(text); m !== null && words.length < MAX_WORDS_READ; m = WORD.exec(text)) {
    const word = m[1] ?? '';
    words.push({ text: word, folded: fold(word), dot: m[2] !== undefined, end: WORD.lastIndex });
    if (m[2] === undefined && !/^[ \t]/.test(text.slice(WORD.lastIndex))) break;
  }
  return words;
}

// A capital means something only in mixed case: in "THIS IS URGENT" every word has one.
export const isCapitalised = (word: string): boolean => /^\p{Lu}/u.test(word) && word !== word.toUpperCase();

/** Words that announce a contact detail: a name written before one ends there ("soy Julia Mora Cel 713 ...", "Jose Garcia Phone ..."). */
const DETAIL_WORDS: ReadonlySet<string> = new Set(['email', 'e-mail', 'mail', 'correo', 'gmail']);

/** Blocked words, also with an English contraction ("what's" -> "what"; "O'Brien" is not one). */
const blocked = (folded: string): boolean =>
  NOT_A_NAME.has(folded) || PHONE_WORDS.has(folded) || DETAIL_WORDS.has(folded) || NOT_A_NAME.has(folded.replace(/['’](?:s|re|m|ll|d|ve|t)$/, ''));

// Endings of the adjectives, demonyms and job titles that follow "I'm" / "soy" ("Soy Venezolana",
// "soy enfermera", "soy chambeador", "I'm Catholic", "i'm hopeful"); checked only on words not known as names.
const COMMON_WORD_ENDING = /.{3}(?:ano|ana|ense|eno|ena|ero|era|ista|ico|ica|ado|ada|ido|ida|oso|osa|ador|adora|edor|edora|ment|ville|ing|ed|ic|ous|ful|less|able|ible|ive|ist)$/;

/** A name the lexicon knows, or a Vietnamese family name it may not ("Huynh", "Truong"). */
export const isKnown = (word: Word): boolean =>
  isKnownName(word.text) || (word.folded.length > 3 && VIETNAMESE_FAMILY.has(word.folded));

/** Could this word be part of a name after this cue? `continuing`: a name word came before it. */
export function nameLike(word: Word, cue: NameCue, continuing: boolean): boolean {
  const capital = isCapitalised(word.text);
  // "I'm Will", "I'm Hope": written as a name, a word that is otherwise a modal or a noun.
  if (WORD_NAMES.has(word.folded)) return capital || cue === 'strong' || (cue === 'weak' && SPANISH_WORD_NAMES.has(word.folded));
  // "me llamo Julio", "I'm April"; after weaker cues only before a surname (givenNameBeforeSurname).
  if (DATE_NAMES.has(word.folded)) return cue === 'strong' || (capital && cue === 'weak');
  if (word.folded.length < 2 || blocked(word.folded)) return false;
  if (cue === 'capitalised' && !capital) return false;
  if (isKnown(word)) return true;
  // After a first name, a capitalised word is a surname even when it is also a common word
  // ("Tom Baker", "David Brown", "Carlos Mendoza").
  if (continuing && capital) return true;
  // "mi nombre es Montserrat": what follows "my name is" with a capital is a name, whatever else it means.
  // "soy karla mendoza": after an introduction, a lower-case surname that is also a town (a guess).
  if (isOtherKnownWord(word.text)) return (capital && cue === 'strong') || (isPlaceName(word.text) && (capital || cue === 'strong' || guessesSurname(cue, continuing)));
  if (cue === 'strong') return true;
  if (COMMON_WORD_ENDING.test(word.folded) || NOT_A_NAME_AFTER_INTRO.has(word.folded)) return false;
  // A lower-case guess: letters only ("pet-friendly" and "sooo" are not names).
  return capital || ((cue === 'weak' || guessesSurname(cue, continuing)) && /^\p{L}{3,}$/u.test(word.folded) && !/(\p{L})\1\1/u.test(word.folded));
}

/**
 * After "this is" / "it's" a first name must be one the lexicon knows, but the surname after it, in
 * lower case like the rest ("this is brianna wells"), may be a word no list knows: a guess.
 */
const guessesSurname = (cue: NameCue, continuing: boolean): boolean => cue === 'weak' || (cue === 'known' && continuing);

/**
 * A capitalised first word that is also a month or some other word ("June Park", "August Reed",
 * "Paris Williams", "Montserrat Banda"), taken as a given name because a capitalised surname follows.
 */
export function givenNameBeforeSurname(word: Word, next: Word | undefined, cue: NameCue): boolean {
  if (next === undefined || word.dot || !isCapitalised(word.text) || !isCapitalised(next.text)) return false;
  // "Soy Lucero Ramírez": a given name with the ending of a job or a demonym ("-ero", "-ana"), before a known surname.
  if (cue !== 'capitalised' && !blocked(word.folded) && COMMON_WORD_ENDING.test(word.folded) && isKnown(next)) return true;
  if (!DATE_NAMES.has(word.folded) && (blocked(word.folded) || !isOtherKnownWord(word.text))) return false;
  // Without an introduction, only a month or a place: "Pest Control - ..." and "Front Gate" are not people.
  if (cue === 'capitalised' && !DATE_NAMES.has(word.folded) && !isPlaceName(word.text)) return false;
  if (PARTICLES.has(next.folded) || TITLES.has(next.folded) || DATE_NAMES.has(next.folded)) return false;
  return nameLike(next, cue, true);
}

/** A lower-case word taken only because an introduction came before it ("soy xiomara"). */
export const isGuess = (word: Word, cue: NameCue): boolean =>
  (cue === 'weak' || cue === 'known') && !isCapitalised(word.text) && (!isKnown(word) || SPANISH_WORD_NAMES.has(word.folded));

// "mcallister" -> "McAllister"; "macdonald" -> "MacDonald" only when a known name follows "Mac"
// ("Macias", "Machado" and "Mackey" keep one capital).
const MC = /^(Mc|Mac)(\p{Ll})(?=\p{Ll}{2})/u;
function scottishCapitals(word: string): string {
  const m = MC.exec(word);
  if (m === null) return word;
  const rest = word.slice(m[1]!.length);
  if (m[1] !== 'Mc' && (rest.length < 4 || !isKnownName(rest))) return word;
  return `${m[1]!}${m[2]!.toUpperCase()}${rest.slice(1)}`;
}

/** "maria" -> "Maria", "o'brien" -> "O'Brien", "MARY-KATE" -> "Mary-Kate", "MCBRIDE" -> "McBride"; mixed case kept as written. */
export function capitalise(word: string, particle: boolean): string {
  const mixed = word !== word.toLowerCase() && word !== word.toUpperCase();
  if (mixed) return word;
  if (particle) return word.toLowerCase();
  return scottishCapitals(word.toLowerCase().replace(/(^|['’-])(\p{L})/gu, (_s, sep: string, ch: string) => sep + ch.toUpperCase()));
}
