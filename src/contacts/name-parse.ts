/**
 * Reads a person's name that starts at a given offset of a message ("...my name is |maria lopez,
 * and..."), word by word, and returns it title-cased, or null when the words there are not a name
 * ("I'm |interested", "soy |estudiante").
 */
import { AFTER_NAME_WORDS, ARTICLES_BEFORE_TITLE, NAME_LINKS, NOT_A_NAME, PARTICLES, PLACES_AFTER_DE, SUFFIXES, SURNAME_NOUNS, SURNAME_PREFIXES, TITLES, VIETNAMESE_FAMILY, VIETNAMESE_MIDDLE } from './name-words.ts';
import { capitalise, givenNameBeforeSurname, isCapitalised, isGuess, isKnown, nameLike, wordsFrom, type NameCue, type Word } from './name-word.ts';
import { fold } from './fold.ts';
import { isPlaceName } from './name-lexicon.ts';

const MAX_NAME_WORDS = 4; // particles ("de la") not counted

/** "Maria's" (husband): the name that follows is someone else's relation, not the writer's. */
const isPossessive = (word: Word): boolean => /['’]s$/i.test(word.text);

function formatSuffix(word: Word): string {
  return word.folded.startsWith('i') ? word.text.toUpperCase() : `${capitalise(word.text, false)}${word.dot ? '.' : ''}`;
}

/**
 * "Nguyen Van An", "pham thi lan": a Vietnamese family name, "Van"/"Thi", then the given name, which
 * may be a word that is blocked elsewhere ("An"). The number of words taken, or 0.
 */
function vietnameseName(words: Word[], i: number, cue: NameCue): number {
  return vietnameseWithMiddle(words, i, cue) || vietnameseCapitalised(words, i);
}

/**
 * "Ngo Thanh Son", "Pham Minh Tuan": a capitalised Vietnamese family name then one or two
 * capitalised given names, which may be words blocked elsewhere ("Son", "An").
 */
function vietnameseCapitalised(words: Word[], i: number): number {
  const family = words[i];
  if (family === undefined || family.dot || !VIETNAMESE_FAMILY.has(family.folded) || !isCapitalised(family.text)) return 0;
  let n = 1;
  while (n < 3) {
    const w = words[i + n - 1]!.dot ? undefined : words[i + n];
    if (w === undefined || !isCapitalised(w.text) || w.folded.length > 6 || TITLES.has(w.folded) || PARTICLES.has(w.folded) || AFTER_NAME_WORDS.has(w.folded)) break;
    n++;
  }
  return n >= 3 ? n : 0;
}

/** "Tuan Anh Le": a Vietnamese family name written last, capitalised, where nothing else follows. */
function isVietnameseFamilyLast(word: Word, next: Word | undefined): boolean {
  return VIETNAMESE_FAMILY.has(word.folded) && PARTICLES.has(word.folded) && isCapitalised(word.text) && (next === undefined || !isCapitalised(next.text));
}

function vietnameseWithMiddle(words: Word[], i: number, cue: NameCue): number {
  const [family, middle, given] = [words[i], words[i + 1], words[i + 2]];
  if (family === undefined || middle === undefined || given === undefined || family.dot || middle.dot) return 0;
  if (!VIETNAMESE_FAMILY.has(family.folded) || !VIETNAMESE_MIDDLE.has(middle.folded) || AFTER_NAME_WORDS.has(given.folded)) return 0;
  const capitals = [family, middle, given].every((w) => isCapitalised(w.text));
  return capitals || cue === 'strong' || cue === 'weak' ? 3 : 0;
}

/**
 * A lower-case guess must visibly end: punctuation, the end, or a word such as "y", "from", "del";
 * after a known first name also any word that is never a name ("im john carver looking at ...").
 */
function endsVisibly(text: string, end: number, knownFirst: boolean): boolean {
  const rest = text.slice(end, end + 60);
  if (/^\s*(?:$|[^\p{L}\s])/u.test(rest)) return true;
  const next = /^\s+([\p{L}\p{M}'’]+)/u.exec(rest)?.[1];
  if (next === undefined) return false;
  const folded = fold(next);
  return AFTER_NAME_WORDS.has(folded) || (knownFirst && NOT_A_NAME.has(folded));
}

export interface NameFound { name: string; end: number }

/** "J", "R.", "k.": a middle initial, kept only between two name words ("John R. Miller", "Roberta k. Simms"). */
const isInitial = (word: Word): boolean => /^\p{Lu}$/u.test(word.text) || (word.dot && /^\p{Ll}$/u.test(word.text));

/** After an initial, the surname: capitalised, or in lower case like the rest ("clara m. hughes" after "name:"). */
function initialBetweenNames(initial: Word, next: Word | undefined, cue: NameCue): boolean {
  if (next === undefined || !nameLike(next, cue, true)) return false;
  if (isCapitalised(next.text)) return true;
  return (cue === 'strong' || cue === 'weak') && initial.dot && initial.text === initial.text.toLowerCase() && next.text === next.text.toLowerCase();
}

/** "de Monterrey", "de Dallas": a lone "de" before a place says where the writer is from ("de las Heras" is a surname). */
const isFromPlace = (words: Word[], i: number): boolean => {
  const next = words[i + 1];
  return words[i]!.folded === 'de' && next !== undefined && !PARTICLES.has(next.folded) && (PLACES_AFTER_DE.has(next.folded) || isPlaceName(next.text));
};

/** A capitalised word goes on after "St.", "El", "Abu": the prefix or link belongs to the name. */
const capitalisedNameNext = (next: Word | undefined, cue: NameCue): boolean =>
  next !== undefined && isCapitalised(next.text) && nameLike(next, cue, true);

/** "mary st. james" after "my name is": a lower-case prefix in a name written all in lower case. */
const lowerCasePrefix = (word: Word, next: Word | undefined, cue: NameCue): boolean =>
  (cue === 'strong' || cue === 'weak') && word.dot && word.text === word.text.toLowerCase() &&
  next !== undefined && next.text === next.text.toLowerCase() && nameLike(next, cue, true);

/** "Grace St. Clair", "Youssef El Amrani": a surname prefix or an Arabic link between name words. */
const isLinkInName = (word: Word, next: Word | undefined, cue: NameCue): boolean =>
  (SURNAME_PREFIXES.has(word.folded) && ((isCapitalised(word.text) && capitalisedNameNext(next, cue)) || lowerCasePrefix(word, next, cue))) ||
  (NAME_LINKS.has(word.folded) && isCapitalised(word.text) && !word.dot && capitalisedNameNext(next, cue));

/** Words before the name proper: titles ("Dr. Amanda Ruiz"), also after an article ("la Sra. Beatriz"). */
function skipTitles(words: Word[], cue: NameCue): number {
  let i = 0;
  if (words.length > 2 && ARTICLES_BEFORE_TITLE.has(words[0]!.folded) && TITLES.has(words[1]!.folded)) i = 1;
  const start = i;
  // Skip titles, but only when a name follows ("Dr. Amanda Ruiz"; "this is Don" keeps "Don").
  while (i + 1 < words.length && TITLES.has(words[i]!.folded) && nameLike(words[i + 1]!, cue, false)) i++;
  return i === start ? 0 : i;
}

/**
 * After particles, the name goes on with a capitalised name word, or with a lower-case one when the
 * visitor wrote the whole name in lower case after an introduction ("me llamo juan de la rosa").
 */
function continuesAfterParticles(next: Word | undefined, previous: Word, cue: NameCue): boolean {
  if (next === undefined || !nameLike(next, cue, true)) return false;
  if (isCapitalised(next.text)) return true;
  return (cue === 'strong' || cue === 'weak') && previous.text === previous.text.toLowerCase() && next.text === next.text.toLowerCase();
}

/** The name starting at `start` after a cue of the given kind, or null. */
export function readNameAt(text: string, start: number, cue: NameCue): NameFound | null {
  const words = wordsFrom(text, start);
  let i = skipTitles(words, cue);
  const parts: string[] = [];
  let end = start;
  let nameWords = 0;
  let guessed = false;
  let capitalisedName = false;
  // The name as far as its last word that is not a guess, and whether its first word is a known name.
  let sure: NameFound | null = null;
  let knownFirst = false;
  for (; i < words.length && nameWords < MAX_NAME_WORDS; i++) {
    const word = words[i]!;
    if (isPossessive(word)) return null;
    const previous = words[i - 1];
    if (parts.length > 0 && previous !== undefined && previous.dot && !TITLES.has(previous.folded) && !isInitial(previous) && !SURNAME_PREFIXES.has(previous.folded)) break;
    if (parts.length > 0 && isLinkInName(word, words[i + 1], cue)) {
      parts.push(`${capitalise(word.text, false)}${word.dot ? '.' : ''}`);
      continue;
    }
    if (parts.length > 0 && isVietnameseFamilyLast(word, words[i + 1])) {
      parts.push(word.text);
      nameWords++;
      end = word.end - (word.dot ? 1 : 0);
      continue;
    }
    if (parts.length > 0 && isInitial(word) && initialBetweenNames(word, words[i + 1], cue)) {
      parts.push(`${word.text.toUpperCase()}${word.dot ? '.' : ''}`);
      continue;
    }
    const taken = vietnameseName(words, i, cue);
    if (taken > 0) {
      for (const w of words.slice(i, i + taken)) parts.push(capitalise(w.text, false));
      nameWords += taken;
      i += taken - 1;
      end = words[i]!.end - (words[i]!.dot ? 1 : 0);
      continue;
    }
    if (parts.length > 0 && SUFFIXES.has(word.folded) && (isCapitalised(word.text) || word.dot)) {
      parts.push(formatSuffix(word));
      end = word.end;
      break;
    }
    if (parts.length > 0 && PARTICLES.has(word.folded)) {
      // "de la Cruz": take the particles only when a name word follows them.
      if (isFromPlace(words, i)) break;
      let j = i;
      while (j < words.length && j - i < 3 && PARTICLES.has(words[j]!.folded) && !words[j]!.dot) j++;
      if (!continuesAfterParticles(words[j], words[i - 1]!, cue)) break;
      for (; i < j; i++) parts.push(capitalise(words[i]!.text, true));
      i--;
      continue;
    }
    // A name begun with capitals ends at a lower-case word ("la Sra. Elvira Campos sobre el depto").
    if (parts.length > 0 && capitalisedName && word.text === word.text.toLowerCase()) break;
    // "I'm Karen Lease": a property word written with a capital after a known given name is its surname.
    if (parts.length > 0 && capitalisedName && isCapitalised(word.text) && SURNAME_NOUNS.has(word.folded) && previous !== undefined && isKnown(previous)) {
      parts.push(capitalise(word.text, false));
      nameWords++;
      end = word.end - (word.dot ? 1 : 0);
      continue;
    }
    if (!nameLike(word, cue, parts.length > 0) && !(parts.length === 0 && givenNameBeforeSurname(word, words[i + 1], cue))) break;
    if (parts.length === 0) {
      capitalisedName = isCapitalised(word.text);
      knownFirst = isKnown(word);
    }
    const guess = isGuess(word, cue);
    if (guess && !guessed && parts.length > 0) sure = { name: parts.join(' '), end };
    guessed ||= guess;
    parts.push(capitalise(word.text, false));
    nameWords++;
    end = word.end - (word.dot ? 1 : 0);
  }
  if (parts.length === 0) return null;
  // "im john bouta leave": a guessed surname that does not visibly end leaves the known first name.
  if (guessed && !endsVisibly(text, end, knownFirst)) return sure;
  return { name: parts.join(' '), end };
}
