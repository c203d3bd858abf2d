/**
 * Input depth (docs/api.md#overload-and-input-depth): a body nested more than MAX_BODY_DEPTH levels of objects and arrays
 * (the body itself is level 1) is refused before it is parsed, so neither the parser nor anything
 * downstream (validation, JSON.stringify when forwarding) ever walks a 10,000-level structure.
 * One pass over the raw text, no recursion: string contents are skipped, brackets counted.
 */
export const MAX_BODY_DEPTH = 32;

export interface TooDeep {
  /** The top-level member holding the deepest part; undefined when the body itself is not an object. */
  readonly member: string | undefined;
  readonly depth: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** Index of the quote closing the string opened at `start`, or text.length when it is not closed. */
function stringEnd(text: string, start: number): number {
  let i = text.indexOf('"', start + 1);
  while (i !== -1) {
    let backslashes = 0;
    while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return i;
    i = text.indexOf('"', i + 1);
  }
  return text.length;
}

/** Longer member names (only unknown members can be long) are cut: the 400 message is logged. */
const MAX_NAME_CHARS = 64;

/** The member's name with its escapes decoded (raw when it cannot be decoded), at most 64 characters. */
function memberName(raw: string): string {
  let name = raw;
  try {
    name = JSON.parse(`"${raw}"`) as string;
  } catch {
    // keep the raw text
  }
  return name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS)}…` : name;
}

/** Undefined when `text` nests at most `limit` levels; otherwise where the deepest part is. */
export function findTooDeep(text: string, limit = MAX_BODY_DEPTH): TooDeep | undefined {
  let depth = 0;
  let deepest = limit;
  // Raw-text spans: the last string seen at level 1 (a key once a ':' follows it), the current
  // member, and the member holding the deepest part found so far.
  let lastString: [number, number] | undefined;
  let member: [number, number] | undefined;
  let deepestMember: [number, number] | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (depth === 1) lastString = [i + 1, end];
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        deepestMember = depth === 1 ? undefined : member;
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth -= 1;
    } else if (c === COLON && depth === 1) {
      member = lastString;
    }
  }
  if (deepest === limit) return undefined;
  const name = deepestMember === undefined ? undefined : memberName(text.slice(deepestMember[0], deepestMember[1]));
  return { member: name, depth: deepest };
}
