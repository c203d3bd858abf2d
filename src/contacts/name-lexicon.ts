/**
 * What compromise's lexicon (about 25k words) knows about one word: whether it is a person's name,
 * or some other kind of word ("interested" is an Adjective, "june" a Month). Only the lexicon table is
 * read, so a lookup costs a hash access instead of a full parse.
 */
import nlp from 'compromise';
import { fold } from './fold.ts';

const NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName', 'LastName', 'Person', 'Honorific']);

interface CompromiseModel { one: { lexicon: Record<string, string | string[] | undefined> } }
const lexicon = (nlp as unknown as { model(): CompromiseModel }).model().one.lexicon;


// The lexicon is a plain object: only its own entries count ("constructor" is not a tag list).
const entry = (key: string): string | string[] | undefined => (Object.hasOwn(lexicon, key) ? lexicon[key] : undefined);

function tagsOf(word: string): string[] {
  const raw = entry(word.toLowerCase()) ?? entry(fold(word));
  if (raw === undefined) return [];
  return Array.isArray(raw) ? raw : [raw];
}

/** The lexicon lists the word as a first or last name ("carlos", "lopez", "fernández"). */
export function isKnownName(word: string): boolean {
  return tagsOf(word).some((tag) => NAME_TAGS.has(tag));
}

const GIVEN_NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName']);

/** The lexicon lists the word as a given name ("john", "lucía"), whatever else it lists it as. */
export function isGivenName(word: string): boolean {
  return tagsOf(word).some((tag) => GIVEN_NAME_TAGS.has(tag));
}

// Towns double as given names ("Guadalupe", "Dallas", "Brooklyn"); countries mostly do not.
const PLACE_TAGS = new Set(['City', 'Place', 'Region', 'ProperNoun']);

/** The lexicon lists the word as something other than a name ("interested", "june", "baker"). */
export function isOtherKnownWord(word: string): boolean {
  const tags = tagsOf(word);
  return tags.length > 0 && !tags.some((tag) => NAME_TAGS.has(tag));
}

/** The lexicon knows the word only as a place, which people are also named after. */
export function isPlaceName(word: string): boolean {
  const tags = tagsOf(word);
  return tags.length > 0 && tags.every((tag) => PLACE_TAGS.has(tag));
}
