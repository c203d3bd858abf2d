/**
 * A person's own name in a chat message. A form's first and last name fields are read first, then
 * self-introductions ("my name is", "this is", "I'm", "me llamo", "soy", ...), lines that open with a
 * name (name-forms.ts), "<Name> here", signatures ("Thanks, Sarah" / "- David Brown") and a name
 * beside a unit in parentheses; only then are compromise's named entities used, and only full names (two or more words)
 * that are not addressed to somebody else ("Hi Sarah", "speak with Maria Lopez").
 */
import nlp from 'compromise';
import { ADDRESSING_BEFORE, DATE_NAMES, INTRO_CUES, TITLES, NOT_A_NAME, OTHER_ACTOR_AFTER, THIRD_PERSON_BEFORE, PLACE_FROM_BEFORE, QUESTION_BEFORE, RELATION_BEFORE, SIGN_OFF, STAFF_AFTER, STAFF_BEFORE, SURNAME_PREFIXES } from './name-words.ts';
import { fold } from './fold.ts';
import { fromFormFields, fromFormLine, fromParenthesised } from './name-forms.ts';
import { personAt } from './name-person.ts';
import type { NameFound } from './name-parse.ts';
import { isShouted, unshout } from './name-case.ts';
import { isGivenName, isKnownName } from './name-lexicon.ts';

interface Candidate { at: number; name: string }

// A capitalised word that ends its clause: "April," / "Abril!" / "June" at the end.
const WORD_ENDING_CLAUSE = /(\p{Lu}\p{Ll}+)(?=[ \t]*(?:[,;!]|$))/uy;

/** "this is April, unit 3": a month that is also a given name, alone in its clause after the cue. */
function dateNameAt(text: string, start: number): string | null {
  WORD_ENDING_CLAUSE.lastIndex = start;
  const word = WORD_ENDING_CLAUSE.exec(text)?.[1];
  return word !== undefined && DATE_NAMES.has(fold(word)) ? word : null;
}

// After a field's surname: a comma, then the given name ending the line ("Name: Smith, John").
const COMMA_THEN = /^[ \t]*,[ \t]*/u;
const LINE_END = /^[ \t]*(?:\r?\n|$)/u;

/** "Smith, John" in a name field: one surname (not a given name), a comma, one given name the lexicon knows, the line's end. */
function surnameFirst(text: string, surname: NameFound): string | null {
  // "Name: Maria, Ana" lists two people: the first word must not be a given name.
  if (surname.name.includes(' ') || isGivenName(surname.name)) return null;
  const comma = COMMA_THEN.exec(text.slice(surname.end, surname.end + 10));
  if (comma === null || !startsWithKnownName(text, surname.end + comma[0].length)) return null;
  const given = personAt(text, surname.end + comma[0].length, 'strong');
  if (given === null || given.name.includes(' ') || !LINE_END.test(text.slice(given.end, given.end + 20))) return null;
  return `${given.name} ${surname.name}`;
}

function fromIntroductions(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const { pattern, cue, dateNames, field } of INTRO_CUES) {
    for (const m of text.matchAll(pattern)) {
      const start = m.index + m[0].length;
      const person = personAt(text, start, cue);
      const name = (field === true && person !== null ? surnameFirst(text, person) : null) ?? person?.name ?? (dateNames === true ? dateNameAt(text, start) : null);
      if (name !== null) found.push({ at: m.index, name });
    }
  }
  return found;
}

// "Jennifer here" / "Priya Patel here" / "Tomás Banderas aquí": up to three capitalised words opening
// a clause. The greeting is tried first, so that "Hey Nick here" reads "Nick", not "Hey Nick" (after
// "Hey," or "Hi!" the name opens a clause anyway).
// Lower-case particles may stand between the words ("Khalil bin Faisal aquí", "Rosa de la Vega here").
const NAME_HERE = /(?:\b(?:[Hh]i|[Hh]ello|[Hh]ey|[Hh]ola)\s+|^|[.!?,;:]\s*)((?:\p{Lu}[\p{L}\p{M}'’-]*\s+(?:(?:de|del|la|las|los|van|von|der|bin|ibn|al|da|di|du)\s+){0,2}){1,3})(?:here|aqu[ií])(?![\p{L}])/gu;

const FIRST_WORD = /[\p{L}\p{M}'’-]+/uy;
const startsWithKnownName = (text: string, start: number): boolean => {
  FIRST_WORD.lastIndex = start;
  const word = FIRST_WORD.exec(text)?.[0];
  return word !== undefined && isKnownName(word);
};

function fromNameHere(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const m of text.matchAll(NAME_HERE)) {
    const start = m.index + m[0].length - m[1]!.length - 4;
    // A surname that is also a place word ("Linda Park here") stays a name after a known first
    // name; "Riverside Park here" is the property.
    const name = personAt(text, start, 'capitalised', startsWithKnownName(text, start));
    if (name !== null) found.push({ at: start, name: name.name });
  }
  return found;
}

// A signature ends the message or is followed by contact details, not by more sentence
// ("Thanks, Sarah" / "- David Brown, david@x.com"; not "Thanks. What's the deposit?").
// The white space after the name is trimmed first: patterns that start with `\s*` and may fail
// later retry every split of a long run of spaces (quadratic).
const SIGNATURE_END = /^[.!]?\s*$/u;
const SEPARATED_CONTACT = /^[,;:–—-]\s*(?:[\w.+-]+@|\+?\(?\d)/u;
// A contact on a later line: no white space before the first line end may be taken for one after it.
const NEXT_LINE_CONTACT = /^[^\S\n]*\n\s*(?:[\w.+-]+@|\+?\(?\d)/u;

// Only this much of the text after a name is read: a message made of closings and names costs a
// bounded read per closing, not the rest of the message each time.
const AFTER_SIGNATURE_CHARS = 120;

/** The name ending at `at` ends the message (`end`: its length without trailing white space) or is followed by a contact. */
function isSignatureEnd(text: string, at: number, end: number): boolean {
  const after = text.slice(at, at + AFTER_SIGNATURE_CHARS);
  const rest = after.trimStart();
  return (end - at <= AFTER_SIGNATURE_CHARS && SIGNATURE_END.test(text.slice(at, end).trimStart())) || SEPARATED_CONTACT.test(rest) || NEXT_LINE_CONTACT.test(after);
}

// The words of an entity, punctuation left out: "(Maria Lopez)," -> "Maria", "Lopez".
const ENTITY_WORD = /\p{L}[\p{L}\p{M}'’-]*/gu;

function fromSignOffs(text: string): Candidate[] {
  const found: Candidate[] = [];
  const end = text.trimEnd().length;
  for (const m of text.matchAll(SIGN_OFF)) {
    const start = m.index + m[0].length;
    // A closing says a person follows: a surname that is also a place word stays a name after a
    // known first name ("Kind regards,\nEthan Park").
    const name = personAt(text, start, 'capitalised', startsWithKnownName(text, start)) ?? lowerCaseSignature(text, start, end);
    if (name !== null && isSignatureEnd(text, name.end, end)) found.push({ at: start, name: name.name });
  }
  return found;
}

// After the name, only a full stop or "!" (white space trimmed first: runs of spaces on both sides of an optional mark backtrack).
const LINE_NAME_END = /^[.!]?$/u;

// Words that open a closing's address to the staff, not a signature ("thanks, sir").
const NOT_SIGNATURE_OPENING: ReadonlySet<string> = new Set(['sir', 'madam', 'maam', "ma'am", 'boss', 'senor', 'senora', 'jefe', 'jefa']);

/**
 * "saludos, ana", "thanks - jake": in lower case, a signature that ends the message (`end`, white
 * space trimmed) and opens with a given name the lexicon knows, not a title ("thanks, ms. lopez"
 * thanks the office).
 */
function lowerCaseSignature(text: string, start: number, end: number): NameFound | null {
  FIRST_WORD.lastIndex = start;
  const word = fold(FIRST_WORD.exec(text)?.[0] ?? '');
  if (TITLES.has(word) || NOT_SIGNATURE_OPENING.has(word) || !isKnownName(word)) return null;
  const name = personAt(text, start, 'known');
  return name !== null && name.end >= end - 1 && LINE_NAME_END.test(text.slice(name.end, end)) ? name : null;
}

// The last line of a message of several lines, alone: "see you tomorrow!\nWes", "...\n- Gloria Reyes".
const LINE_DASH = /^[ \t]*(?:[-–—~][ \t]*)?/u;
const MAX_LAST_LINE = 60;

/**
 * A signature without a closing word: the message's last line holds only a name (one to four words,
 * the first a given name the lexicon knows, written with a capital).
 */
function fromLastLine(text: string): Candidate[] {
  const end = text.trimEnd().length;
  const lineStart = text.lastIndexOf('\n', end - 1) + 1;
  if (lineStart === 0 || end - lineStart > MAX_LAST_LINE) return [];
  const start = lineStart + (LINE_DASH.exec(text.slice(lineStart, end))?.[0].length ?? 0);
  if (!startsWithKnownName(text, start)) return [];
  // A sentence broken over two lines ("can I talk to\nMaria", "my daughter\nEmma") names someone else.
  const before = text.slice(Math.max(0, lineStart - 40), lineStart).trimEnd();
  if (ADDRESSING_BEFORE.test(before) || RELATION_BEFORE.test(before)) return [];
  const name = personAt(text, start, 'capitalised', true);
  if (name === null || !LINE_NAME_END.test(text.slice(name.end, end).trim())) return [];
  return [{ at: start, name: name.name }];
}

// The last sentence of a message, alone: "Please call me back. Sam", "Can I tour Friday? Dana Reyes".
const SENTENCE_BREAK = /[.!?][ \t]+/gu;
const WHITE_SPACE = /\s+/u;
const LETTER = /\p{L}/u;

/** The word that ends `text` ("Mr" in "... Mr"), read backwards without a pattern. */
function lastWordOf(text: string): string {
  let i = text.length;
  while (i > 0 && LETTER.test(text[i - 1]!)) i--;
  return text.slice(i);
}

/**
 * A signature after the message's last full stop, "!" or "?" on its line: a given name the lexicon
 * knows, written with a capital, and nothing after it. Not after a title, a prefix or an initial
 * ("Mr. Sam", "St. Louis", "J. Smith"), nor after a bare greeting ("Hello. Sam").
 */
function fromLastSentence(text: string): Candidate[] {
  const end = text.trimEnd().length;
  const from = Math.max(0, end - MAX_LAST_LINE);
  const tail = text.slice(from, end);
  let breakAt = -1;
  let start = -1;
  for (const m of tail.matchAll(SENTENCE_BREAK)) {
    breakAt = m.index;
    start = from + m.index + m[0].length;
  }
  if (start < 0 || text.slice(start, end).includes('\n')) return [];
  const wordBefore = fold(lastWordOf(tail.slice(0, breakAt)));
  if (tail[breakAt] === '.' && (TITLES.has(wordBefore) || SURNAME_PREFIXES.has(wordBefore) || wordBefore.length === 1)) return [];
  const lineStart = text.lastIndexOf('\n', start) + 1;
  if (text.slice(Math.max(lineStart, start - MAX_LAST_LINE), from + breakAt).trim().split(WHITE_SPACE).length < 3) return [];
  if (!startsWithKnownName(text, start)) return [];
  const name = personAt(text, start, 'capitalised', true);
  if (name === null || !LINE_NAME_END.test(text.slice(name.end, end).trim())) return [];
  return [{ at: start, name: name.name }];
}

// compromise costs about 25 ms per 1,000 characters; a name given without an introduction sits near
// the start of a message, so only that part is parsed (the patterns above read the whole text).
const ENTITY_SCAN_CHARS = 1000;

function fromEntities(text: string): Candidate[] {
  const found: Candidate[] = [];
  // With `offset: true`, compromise gives every match its offset.
  const people = nlp(text.slice(0, ENTITY_SCAN_CHARS)).people().json({ offset: true }) as Array<{ text: string; offset: { start: number } }>;
  for (const person of people) {
    const at = person.offset.start;
    // Every word of the entity counts, not only those read as the name ("Fuga De Gas" names no one).
    // A capital first letter is not checked here: the name is read below as capitalised words.
    const words = Array.from(person.text.matchAll(ENTITY_WORD), ([word]) => fold(word));
    if (words.length < 2 || words.some((word) => NOT_A_NAME.has(word))) continue;
    const before = text.slice(Math.max(0, at - 40), Math.max(0, at)).trimEnd();
    if (ADDRESSING_BEFORE.test(before) || RELATION_BEFORE.test(before) || STAFF_BEFORE.test(before) || PLACE_FROM_BEFORE.test(before) || THIRD_PERSON_BEFORE.test(before) || QUESTION_BEFORE.test(before)) continue;
    const name = personAt(text, at, 'capitalised');
    if (name !== null && (STAFF_AFTER.test(text.slice(name.end, name.end + 40)) || OTHER_ACTOR_AFTER.test(text.slice(name.end, name.end + 40)))) continue;
    if (name !== null && name.name.includes(' ')) found.push({ at, name: name.name });
  }
  return found;
}

const first = (candidates: Candidate[]): string | null =>
  candidates.sort((a, b) => a.at - b.at)[0]?.name ?? null;

/** The writer's own name, capitalised, or null when the message does not give one. */
export function findName(written: string): string | null {
  const shouted = isShouted(written);
  const text = shouted ? unshout(written) : written;
  return fromFormFields(text) ?? first(fromIntroductions(text)) ?? fromFormLine(text) ?? first(fromNameHere(text)) ?? first(fromSignOffs(text)) ?? first(fromLastLine(text)) ?? first(fromLastSentence(text)) ??
    fromParenthesised(text) ?? (shouted ? null : first(fromEntities(text))); // entities need the case the writer chose
}
