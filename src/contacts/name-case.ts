/**
 * Messages typed in capitals ("HI MY NAME IS DOROTHY SIMMONS ..."): a capital says nothing about
 * what is a name there, so the name finder reads them written the usual way, each word with one
 * capital ("My Name Is Dorothy Simmons"), except words that are never names, which are written in
 * lower case ("call me", "de la"), so that they never pass for a surname ("CARMEN DIAZ CALL ME"),
 * contractions kept ("I'm", "Don't") and Mc/Mac names as they are spelt ("McClain").
 */
import { fold } from './fold.ts';
import { capitalise } from './name-word.ts';
import { NOT_A_NAME, PARTICLES } from './name-words.ts';
import { PHONE_WORDS } from './phone-words.ts';
import { isOtherKnownWord, isPlaceName } from './name-lexicon.ts';

const UPPER = /\p{Lu}/gu;
const LOWER = /\p{Ll}/gu;
const MIN_CAPITALS = 6;

/** Nearly every cased letter of the text is a capital (one lower-case letter in ten at most). */
export function isShouted(text: string): boolean {
  const upper = text.match(UPPER)?.length ?? 0;
  if (upper < MIN_CAPITALS) return false;
  return (text.match(LOWER)?.length ?? 0) * 10 <= upper;
}

const WORD = /[\p{L}\p{M}]+(?:['’-][\p{L}\p{M}]+)*/gu;
const CONTRACTION = /^(.+)(['’](?:s|m|re|ll|d|ve|t))$/iu;

/** Words that are never a name, or that the lexicon knows only as other words ("CALL", "ME", "LLÁMENME"). */
const isPlainWord = (word: string): boolean => {
  const folded = fold(word);
  return PARTICLES.has(folded) || NOT_A_NAME.has(folded) || PHONE_WORDS.has(folded) || (isOtherKnownWord(word) && !isPlaceName(word));
};

function wordAsWritten(word: string): string {
  if (isPlainWord(word)) return word.toLowerCase();
  const contraction = CONTRACTION.exec(word);
  if (contraction !== null && !/^o$/i.test(contraction[1]!)) return `${capitalise(contraction[1]!, false)}${contraction[2]!.toLowerCase()}`;
  return capitalise(word, false);
}

/** The text with every word in the usual case, for a text typed in capitals. */
export function unshout(text: string): string {
  return text.replace(WORD, wordAsWritten);
}
