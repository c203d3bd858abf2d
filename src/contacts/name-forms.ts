/**
 * Names given the way forms and tickets give them, without an introduction: a form's first and last
 * name fields ("First name: Wei" / "Last name: Zhang", "Nombre:" / "Apellidos:"), a line that opens
 * with the name and goes on with a detail or a dash ("Keisha Brown, 404 718 2296", "Marcus Bell —
 * the garage door ..."), and a name beside a unit in parentheses ("(Megan Fowler, unit 402)",
 * "Victor Huang (unit 1507): ..."). Each reading is bounded: a few patterns, a few lines.
 */
import { isCapitalised } from './name-word.ts';
import { PARTICLES, RELATION_BEFORE, ADDRESSING_BEFORE, STAFF_BEFORE } from './name-words.ts';
import { personAt } from './name-person.ts';
import { fold } from './fold.ts';
import nlp from 'compromise';
import { isOtherKnownWord } from './name-lexicon.ts';

// Field labels at the start of a line or after a separator; the value runs to the line's end.
const FIRST_NAME_FIELD = /(?<![\p{L}])(?:first[ \t]*name|given[ \t]*name|primer[ \t]+nombre|nombres?)[ \t]*:[ \t]*/iu;
const LAST_NAME_FIELD = /(?<![\p{L}])(?:last[ \t]*name|surname|family[ \t]*name|apellidos?(?:[ \t]+paterno)?)[ \t]*:[ \t]*/iu;
// Spanish forms may ask for the second surname apart ("Apellido materno: Vega").
const SECOND_LAST_NAME_FIELD = /(?<![\p{L}])apellido[ \t]+materno[ \t]*:[ \t]*/iu;

/** "First name: Wei / Last name: Zhang" in either order: "Wei Zhang". */
export function fromFormFields(text: string): string | null {
  const first = FIRST_NAME_FIELD.exec(text);
  const last = LAST_NAME_FIELD.exec(text);
  if (first === null || last === null) return null;
  const given = personAt(text, first.index + first[0].length, 'strong');
  const family = personAt(text, last.index + last[0].length, 'strong');
  if (given === null || family === null) return null;
  const second = SECOND_LAST_NAME_FIELD.exec(text);
  const mother = second === null ? null : personAt(text, second.index + second[0].length, 'strong');
  return [given.name, family.name, mother?.name].filter((part) => part !== undefined).join(' ');
}

// After the name: a phone or an address ("Keisha Brown, 404 718 2296"), or a dash and the message
// ("Tasha Green - unit 5 - ...", "Marcus Bell — the garage door ...").
const DETAIL_NEXT = /^\s*(?:[,|;:–—-]\s*)?(?:\+?\(?\d|[\w.+-]+@)/u;
const DASH_NEXT = /^[ \t]+[-–—][ \t]|^[ \t]*[–—]/u;
// A greeting or a dash before the name on its line ("Hi - Brandon Tate (Apt 12B) - ...", "Buenas, ...").
const LINE_OPENING = /^[ \t]*(?:(?:hi|hello|hey|hola|buenas|buenos[ \t]+d[ií]as|good[ \t]+(?:morning|afternoon|evening))[ \t]*[,!.:–—-]?[ \t]*)?/iu;
const MAX_LINES = 20;

/**
 * Before a dash or a unit, a subject line looks like a name: "Fuga De Gas - cocina" (a capital "De"),
 * "Noise Complaint - unit 4B", "Front Gate - ...". compromise's tagger, run on those few words only,
 * tells a person's name ("Kateryna Bondarenko", "Rajesh Kumar") from the nouns of a subject line.
 */
const hasOtherWord = (name: string): boolean => name.split(' ').some((w) => isOtherKnownWord(w));

function looksLikePerson(name: string): boolean {
  if (name.split(' ').some((w) => PARTICLES.has(fold(w)) && isCapitalised(w))) return false;
  return nlp(name).has('#Person');
}

function formLineAt(text: string, lineStart: number): string | null {
  const start = lineStart + (LINE_OPENING.exec(text.slice(lineStart, lineStart + 40))?.[0].length ?? 0);
  const name = personAt(text, start, 'capitalised');
  if (name === null || !name.name.includes(' ')) return null;
  const rest = text.slice(name.end, name.end + 80);
  if (DETAIL_NEXT.test(rest)) return name.name;
  if (DASH_NEXT.test(rest)) return looksLikePerson(name.name) ? name.name : null;
  // A unit in parentheses says more than a dash: words the lexicon does not know as other words will do.
  return UNIT_IN_PARENTHESES.test(rest) && (looksLikePerson(name.name) || !hasOtherWord(name.name)) ? name.name : null;
}

/** A line opening with a name, then a detail, a dash or a unit in parentheses. */
export function fromFormLine(text: string): string | null {
  let lineStart = 0;
  for (let line = 0; line < MAX_LINES && lineStart <= text.length; line++) {
    const found = formLineAt(text, lineStart);
    if (found !== null) return found;
    const next = text.indexOf('\n', lineStart);
    if (next < 0) break;
    lineStart = next + 1;
  }
  return null;
}

// "(unit 1507)", "(Apt 12B)", "(#307)", "(depto 402)": a unit in parentheses right after a name.
const UNIT_WORDS = 'unit|apt|apartment|apto|depto|dpto|departamento|unidad|suite|ste|room|cuarto|bldg|edificio|casa|lote|lot';
const UNIT_IN_PARENTHESES = new RegExp(`^[ \\t]*\\([ \\t]*(?:#[ \\t]*\\d|\\d|(?:${UNIT_WORDS})\\.?[ \\t]*(?:#[ \\t]*)?\\d)`, 'iu');
// Inside the parentheses, after the name: a unit, a number or the closing parenthesis.
const UNIT_AFTER_NAME = new RegExp(`^[ \\t]*(?:,[ \\t]*)?(?:#[ \\t]*\\d|\\d|(?:${UNIT_WORDS})\\b)`, 'iu');
const OPEN_PARENTHESIS = /\([ \t]*(?=\p{Lu})/gu;
const MAX_PARENTHESES = 10;

/** "(Megan Fowler, unit 402)", "(Adriana Muñoz #307)": a full name and a unit in parentheses. */
export function fromParenthesised(text: string): string | null {
  let seen = 0;
  for (const m of text.matchAll(OPEN_PARENTHESIS)) {
    if (++seen > MAX_PARENTHESES) break;
    const before = text.slice(Math.max(0, m.index - 40), m.index).trimEnd();
    if (ADDRESSING_BEFORE.test(before) || RELATION_BEFORE.test(before) || STAFF_BEFORE.test(before)) continue;
    const name = personAt(text, m.index + m[0].length, 'capitalised');
    if (name !== null && name.name.includes(' ') && UNIT_AFTER_NAME.test(text.slice(name.end, name.end + 40))) return name.name;
  }
  return null;
}
