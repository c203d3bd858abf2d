/**
 * What the text around a candidate number says about it: a phone cue before it ("call me at",
 * "mi cel es"), a label that makes it something else ("unit", "confirmation number", "número de
 * reserva"), money or a measure, or a country named next to it.
 */
import type { CountryCode } from 'libphonenumber-js';
import { fold } from './fold.ts';
import { COUNTRY_WORDS, labelOf } from './phone-words.ts';

/** Owners that make "number" the writer's own ("my number", "mi número"). */
export const OWNER_BEFORE_NUMBER: ReadonlySet<string> = new Set(['my', 'mi', 'our', 'nuestro']);

/** How far back a cue or label is looked for: a short clause ("my cell number is"). */
const LOOK_BACK_CHARS = 60;
const LOOK_BACK_WORDS = 6;

// Words and "#" before the number; a token holding a digit ("1203", "12B") belongs to other digits.
const TOKEN = /[\p{L}\p{M}]+(?:['’][\p{L}]+)?|#|[\p{L}\p{N}]*\p{N}[\p{L}\p{N}]*/gu;

/**
 * `phone` when the nearest label before `start` is a phone cue (or only "number"), `not-phone` when
 * it labels something else ("apt", "confirmation number", "número de reserva"), null when the clause
 * before says nothing. The search stops at other digits and at "!", "?" and line ends.
 */
export function labelBefore(text: string, start: number): 'phone' | 'not-phone' | null {
  const window = text.slice(Math.max(0, start - LOOK_BACK_CHARS), start);
  // A sentence ends at "!", "?", a line end or a full stop before a space ("the permit is on the
  // dash. my number ..."): a label in an earlier sentence says nothing about these digits.
  const fullStop = Math.max(window.lastIndexOf('. '), window.lastIndexOf('.\t'));
  const clause = window.slice(Math.max(window.lastIndexOf('!'), window.lastIndexOf('?'), window.lastIndexOf('\n'), fullStop) + 1);
  const tokens = Array.from(clause.matchAll(TOKEN), (m) => m[0]);
  let sawNumberWord = false;
  // A property word (rent, door, building...) labels the digits only when nothing but "number",
  // "is", "the", "my", "de"... stands between them ("reserva, the number ..."); after any other word
  // it is the sentence's topic, not these digits' name ("my rent is late, 713 ...", "text me about
  // the rent at 713 ...", "la puerta no cierra 713 ..."). Ids label the digits anywhere in the window.
  let bridged = true;
  let words = 0;
  for (let i = tokens.length - 1; i >= 0 && words < LOOK_BACK_WORDS; i--) {
    const token = tokens[i] ?? '';
    if (/\p{N}/u.test(token)) break;
    const folded = fold(token);
    const label = labelOf(folded);
    if (label === 'phone') return label;
    if (label === 'not-phone') {
      // Ids ("account", "ticket", "confirmation") label the digits anywhere in the window, as
      // before; a property word only next to them and not after a preposition.
      if (!TOPIC_LABELS.has(folded) || (bridged && !afterPreposition(tokens, i))) return label;
      bridged = false;
      words++;
    } else if (label === 'number') {
      // "my number", "mi número": the writer's own number, whatever labels stand further back.
      if (OWNER_BEFORE_NUMBER.has(fold(tokens[i - 1] ?? ''))) return 'phone';
      sawNumberWord = true;
    } else {
      // "solicitud de servicio 713 ...", "orden de trabajo ...": a word after "de" completes the label before it.
      if (!BRIDGING_WORDS.has(folded) && !LABEL_COMPLEMENT_BEFORE.has(fold(tokens[i - 1] ?? ''))) bridged = false;
      words++;
    }
  }
  return sawNumberWord ? 'phone' : null;
}

/**
 * Labels that are also what a message is about: after a preposition ("call me about the deposit
 * 713 ...", "problem with my door 713 ...", "llámame sobre la renta 713 ...") they are the topic, and
 * the digits after them are not theirs. Labels of ids (order, ticket, confirmation, reserva) are
 * not among them: "about ticket 3124478810" is still a ticket.
 */
const TOPIC_LABELS: ReadonlySet<string> = new Set([
  'rent', 'renta', 'alquiler', 'deposit', 'deposito', 'lease', 'contrato', 'application', 'solicitud', 'payment', 'pago',
  'door', 'puerta', 'gate', 'mailbox', 'buzon', 'building', 'edificio', 'apartment', 'apartamento', 'departamento', 'depto',
  'apt', 'unit', 'unidad', 'room', 'cuarto', 'price', 'precio', 'cost', 'costo', 'budget', 'presupuesto', 'floor', 'piso', 'tower', 'torre',
]);
const TOPIC_PREPOSITIONS: ReadonlySet<string> = new Set([
  'about', 'regarding', 're', 'with', 'for', 'on', 'at', 'in', 'to', 'sobre', 'con', 'para', 'por', 'en', 'a', 'al', 'acerca', 'respecto',
]);
/** How many words back from a topic label its preposition may stand ("with my patio door", "por lo del contrato"). */
const TOPIC_REACH = 3;

/** The label at `i` follows a preposition, an article, a possessive or a modifier maybe between ("about the rent"). */
function afterPreposition(tokens: readonly string[], i: number): boolean {
  for (let j = i - 1; j >= 0 && j >= i - TOPIC_REACH; j--) {
    const token = tokens[j] ?? '';
    if (/\p{N}/u.test(token)) return false;
    if (TOPIC_PREPOSITIONS.has(fold(token))) return true;
  }
  return false;
}

/** Words after which a noun completes the label before them (Spanish puts the label first). */
const LABEL_COMPLEMENT_BEFORE: ReadonlySet<string> = new Set(['de', 'del']);

/** Words that may stand between a label and the digits it names ("order is #...", "número de la reserva ..."). */
const BRIDGING_WORDS: ReadonlySet<string> = new Set(['is', 'es', 'was', 'era', 'are', 'the', 'el', 'la', 'los', 'las', 'my', 'mi', 'our', 'nuestro', 'nuestra', 'your', 'tu', 'su', 'sus', 'de', 'del', 'of']);

// "3054827719 is my confirmation number" / "... es el número de mi reserva".
const LABEL_AFTER = /^\s*(?:is|es|was|era|=)\s+(?:(?:my|mi|our|the|el|la|nuestro|nuestra|n[uú]mero|number|de)\s+)*([\p{L}\p{M}]+)/iu;

/** The number is followed by "is my <label of something else>". */
export function labelledAfterAsOther(text: string, end: number): boolean {
  const word = LABEL_AFTER.exec(text.slice(end, end + LOOK_BACK_CHARS))?.[1];
  return word !== undefined && labelOf(fold(word)) === 'not-phone';
}

// A digit run written as money or an area is never a phone, whatever its length ("$2125550147",
// "3054827719 sq ft", "rent 3054827719/mo").
const MONEY_BEFORE = /[$€£¥]\s*$/;
const MEASURE_AFTER = /^\s*(?:sq\.?\s*f(?:ee)?t|sqft|ft2|ft²|m2|m²|pies|\/\s*mo|per\s+month|a\s+month|al\s+mes|usd|dollars|d[oó]lares|pesos|%)/i;

export function isMoneyOrMeasure(text: string, start: number, end: number): boolean {
  return MONEY_BEFORE.test(text.slice(Math.max(0, start - 4), start)) || MEASURE_AFTER.test(text.slice(end, end + 20));
}

/** Digits glued to letters ("ABC3054827719", "ref3054827719b") are part of some code. */
export function isGluedToLetters(text: string, start: number, end: number): boolean {
  return /[\p{L}_]/u.test(text[start - 1] ?? '') || /[\p{L}_]/u.test(text[end] ?? '');
}

// "(+52)" or "+52" alone after the number: the country code the writer left out in front (a "+"
// followed by more digits is the next number).
const CALLING_CODE_AFTER = /\(?\+(\d{1,3})\)?(?![\s.-]*[\d(])/;
const COUNTRY_WINDOW_CHARS = 40;

export type CountryHint = { country: CountryCode } | { callingCode: string };

/** A country the writer names next to the number ("de México", "(+52)", "my UK mobile"), if any. */
export function countryHint(text: string, start: number, end: number): CountryHint | null {
  const after = text.slice(end, end + COUNTRY_WINDOW_CHARS);
  const code = CALLING_CODE_AFTER.exec(after)?.[1];
  if (code !== undefined) return { callingCode: code };
  const around = `${text.slice(Math.max(0, start - COUNTRY_WINDOW_CHARS), start)} ${after}`;
  for (const [word] of around.matchAll(/[\p{L}\p{M}]+/gu)) {
    const country = COUNTRY_WORDS.get(fold(word));
    if (country !== undefined) return { country };
  }
  return null;
}
