/**
 * Streets, avenues and places named after people ("cerca de la calle Benito Juárez", "near Martin
 * Luther King Blvd", "Jefferson Park"): the words around such a name show it is a place, not the
 * writer.
 */
import { fold } from './fold.ts';
import { isKnownName } from './name-lexicon.ts';

const list = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/));

// Before the name: the "calle", "avenida", "street", "near", "cerca de", and their kin, with
// an optional article ("cerca de la", "on the").
const PLACE_BEFORE = new RegExp(
  '(?:^|[^\\p{L}])(?:calle|avenida|av\\.?|ave\\.?|avenue|street|st\\.|boulevard|blvd\\.?|bulevar|carretera|highway|' +
    'camino|paseo|calzada|near|nearby|by|on|off|close\\s+to|next\\s+to|cerca\\s+de(?:l)?|junto\\s+a(?:l)?|frente\\s+a(?:l)?|' +
    'parque|park|plaza|colonia|barrio|metro|estaci[oó]n|station|escuela|colegio|school|universidad|university|' +
    'hospital|aeropuerto|airport|torre|tower|residencial|fraccionamiento|condominios?|edificio|conjunto|villas|privada|' +
    'hacienda|lomas|jardines)[\\s.,]+(?:(?:la|el|los|las|the)\\s+)?$',
  'iu',
);

/** Words that make the name before them part of a street's name ("Washington Street", "Elm St"). */
const STREET_TYPES = list(`
  street st avenue ave av boulevard blvd road rd drive parkway pkwy highway hwy expressway freeway
  turnpike circle terrace calle avenida court ct lane ln way place pl
`);

/** Words that make the name before them a place ("Jefferson Park", "Lincoln Center"). */
const PLACE_TYPES = list(`
  park plaza square center centre mall station school university college hospital library church
  airport beach bay lake heights gardens apartments apts towers tower building bridge metro parque
  county city elementary middle high academy institute museum stadium memorial
`);

/** Words that make a name before them a property or a company, unless it opens with a given name ("Sunset Ridge resident"). */
const GROUP_AFTER = list(`resident residents tenant tenants community management team staff homes`);

const wordsOf = (text: string): string[] => (text.match(/[\p{L}\p{M}]+/gu) ?? []).map(fold);

/**
 * The name found between `start` and `end` is a street or a place: a place word stands before it,
 * it ends with a street word, or a street or place word follows it. `introduced` names ("I'm Jin
 * Park") may end with a place word that is also a surname.
 */
export function isStreetOrPlace(text: string, start: number, end: number, introduced: boolean): boolean {
  if (!introduced && PLACE_BEFORE.test(text.slice(Math.max(0, start - 30), start))) return true;
  const own = wordsOf(text.slice(start, end));
  const last = own.at(-1) ?? '';
  if (STREET_TYPES.has(last) || (!introduced && PLACE_TYPES.has(last))) return true;
  const next = /^\s+([\p{L}\p{M}]+)/u.exec(text.slice(end))?.[1];
  if (next === undefined) return false;
  const after = fold(next);
  if (GROUP_AFTER.has(after) && !isKnownName(/[\p{L}\p{M}'’-]+/u.exec(text.slice(start, end))?.[0] ?? '')) return true;
  return STREET_TYPES.has(after) || PLACE_TYPES.has(after);
}
