/**
 * Which of the details found in a message is the visitor's own and preferred (docs/contracts.md#handoff-receiver): never a
 * relative's, a neighbour's or the property's own line ("I called your office at ...", "my husband's
 * is ..."), never one the visitor calls old or wrong; a detail the visitor says to use ("the new one",
 * "use my personal", "call me instead at", "cell is better") before the others; work or school ones
 * after the others; otherwise the first. The words read are those of the clause before each detail
 * and those after it up to the next clause boundary. Linear in the text.
 */
import { fold } from './fold.ts';
import {
  CALL_ME_WORDS, LINE_KINDS, LINE_WORDS, TOPIC_OWNER_WORDS, NOT_FOR_USE_AFTER, OFFICE_WORDS, OLD_WORDS, OTHER_OWNER_WORDS, PREFERRED_WORDS, PROPERTY_OFFICE_BEFORE, SECOND_CHOICE_WORDS, SELF_WORDS,
  THIRD_PERSON_OWNER,
} from './preference-words.ts';

export interface Found { readonly start: number; readonly end: number }

type Standing = 'preferred' | 'plain' | 'second' | 'other';

/** How far before the first detail, and after the last, words are read. */
const WINDOW_CHARS = 80;

const wordsOf = (text: string): string[] => Array.from(text.matchAll(/[\p{L}\p{M}'’]+/gu), ([w]) => fold(w).replace(/['’]s$/, ''));

// The last clause boundary of a stretch: a comma, a full stop before a space (not a title's: "for
// Mr. Ortiz at ..." is one clause), ";", "!", "?", a line end, "(".
const lastBoundary = (text: string): number => {
  let at = -1;
  for (const m of text.matchAll(/[,;!?\n(]|(?<!(?<![\p{L}])(?:[Mm]rs?|[Mm]s|[Dd]r|[Ss]ra?|[Ss]rta|[Ll]ic|[Ii]ng|[Pp]rof))\.(?=\s|$)|\s[-–—]\s|\b(?:but|pero)\b/gu)) at = m.index + m[0].length;
  return at;
};
const firstSentenceEnd = (text: string): number => {
  const m = /[!?\n]|\.(?=\s|$)/u.exec(text);
  return m === null ? text.length : m.index;
};

/** How far from a department a line word makes it the number's owner ("the number on the website"). */
const OWNER_REACH_WORDS = 3;

/** The word at `i` says the detail is someone else's (a department only when it names a line). */
function isOwner(words: string[], i: number): boolean {
  const w = words[i]!;
  if (!TOPIC_OWNER_WORDS.has(w)) return OTHER_OWNER_WORDS.has(w);
  for (let j = Math.max(0, i - OWNER_REACH_WORDS); j <= Math.min(words.length - 1, i + OWNER_REACH_WORDS); j++) if (LINE_WORDS.has(words[j]!)) return true;
  return false;
}

/** The words of the clause before a detail decide its standing; `null` when they say nothing. */
function standingBefore(words: string[]): Standing | null {
  if (words.some((w) => PREFERRED_WORDS.has(w))) return 'preferred';
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i]!;
    if (SELF_WORDS.has(w) || CALL_ME_WORDS.has(w)) return null;
    if (OLD_WORDS.has(w)) return 'other';
    if (OFFICE_WORDS.has(w)) return PROPERTY_OFFICE_BEFORE.has(words[i - 1] ?? '') ? 'other' : 'second';
    if (isOwner(words, i)) return 'other';
    if (SECOND_CHOICE_WORDS.has(w)) return 'second';
  }
  return null;
}

const someoneElses = (words: string[], i: number): boolean =>
  isOwner(words, i) || (OFFICE_WORDS.has(words[i]!) && PROPERTY_OFFICE_BEFORE.has(words[i - 1] ?? ''));

/** "su número" in a sentence that named a relative or a neighbour earlier: theirs, not the writer's. */
function someoneNamedBefore(text: string, start: number, clause: string[]): Standing | null {
  if (!clause.some((w) => THIRD_PERSON_OWNER.has(w)) || clause.some((w) => SELF_WORDS.has(w))) return null;
  const earlier = wordsOf(text.slice(Math.max(0, start - WINDOW_CHARS), start));
  return earlier.some((w) => OTHER_OWNER_WORDS.has(w)) ? 'other' : null;
}

function standingAfter(words: string[]): Standing | null {
  if (words.some((w, i) => NOT_FOR_USE_AFTER.has(w) || someoneElses(words, i))) return 'other';
  if (words.some((w) => PREFERRED_WORDS.has(w))) return 'preferred';
  return null;
}

/** The detail the visitor wants used, or null when every one found is someone else's or unusable. */
export function choosePreferred<T extends Found>(text: string, found: readonly T[]): T | null {
  if (found.length === 0) return null;
  // The stretch between two details: its last clause is the next one's `before`, the rest the
  // previous one's `after`.
  const before: string[][] = [];
  const after: string[][] = [];
  for (const [i, detail] of found.entries()) {
    const from = i === 0 ? Math.max(0, detail.start - WINDOW_CHARS) : found[i - 1]!.end;
    const gap = text.slice(from, detail.start);
    const cut = Math.max(0, lastBoundary(gap));
    if (i > 0) after.push(wordsOf(gap.slice(0, cut)));
    before.push(wordsOf(gap.slice(cut)));
  }
  const last = found.at(-1)!;
  const tail = text.slice(last.end, last.end + WINDOW_CHARS);
  const tailClause = tail.slice(0, firstSentenceEnd(tail));
  after.push(wordsOf(tailClause.slice(0, /[,;]|\s[-–—]\s/u.exec(tailClause)?.index ?? tailClause.length)));
  // "home ..., cell ... - cell is better", "mejor al celular": the kind named last is preferred
  // (with one detail found, preferring it changes nothing).
  const namedKind = wordsOf(tailClause).find((w) => LINE_KINDS.has(w));

  const standings = found.map((detail, i): Standing => {
    const own = standingBefore(before[i]!) ?? someoneNamedBefore(text, detail.start, before[i]!);
    const later = standingAfter(after[i]!);
    if (own === 'other' || later === 'other') return 'other';
    if (namedKind !== undefined && before[i]!.includes(namedKind)) return 'preferred';
    return own ?? later ?? 'plain';
  });
  for (const wanted of ['preferred', 'plain', 'second'] as const) {
    const i = standings.indexOf(wanted);
    if (i >= 0) return found[i]!;
  }
  return null;
}
