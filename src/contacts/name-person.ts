/**
 * A person's name read at an offset of a message, unless the words around it show it names a street,
 * a place or a qualification ("Martin Luther King Blvd", "I'm Section 8 approved").
 */
import { QUALIFICATION_AFTER } from './name-words.ts';
import { readNameAt, type NameFound } from './name-parse.ts';
import { isStreetOrPlace } from './name-places.ts';

/**
 * A person's name read at `start`, or null when there is none or it names a street or a place.
 * `introduced`: the words around say a person follows or precedes ("my name is", "... here"), so a
 * surname that is also a place word stays a name ("Linda Park here").
 */
export function personAt(text: string, start: number, cue: Parameters<typeof readNameAt>[2], introduced = cue !== 'capitalised'): NameFound | null {
  const name = readNameAt(text, start, cue);
  if (name === null || isStreetOrPlace(text, start, name.end, introduced)) return null;
  return QUALIFICATION_AFTER.test(text.slice(name.end, name.end + 40)) ? null : name;
}
