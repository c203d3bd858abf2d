import placesFile from '../data/place-keywords.json' with { type: 'json' };
import { foldAccents, words } from './words.ts';
import { compilePatternSets } from './word-patterns.ts';

const placeKinds = compilePatternSets(placesFile.places);

/** The kinds of places (canonical English keywords) that a question mentions, in a fixed order. */
export function placeKeywords(text: string): string[] {
  const folded = words(text).map(foldAccents);
  return placeKinds.filter((k) => k.matches(folded)).map((k) => k.name);
}
