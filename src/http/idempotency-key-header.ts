/**
 * The `Idempotency-Key` request header (docs/api.md#idempotency, after the IETF HTTPAPI draft): 1..255
 * printable ASCII characters (0x20-0x7E), sent bare (`abc`) or as the draft's quoted string
 * (`"abc"`, the quotes not counted, `\"` and `\\` escapes as in RFC 8941 strings). Both forms name
 * the same key. A quote anywhere else, several header lines, or a comma-separated list is refused.
 */
import type { IncomingMessage } from 'node:http';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_MAX_CHARS = 255;

export type ParsedIdempotencyKey =
  | { readonly ok: true; readonly key: string }
  | { readonly ok: false; readonly problem: string };

const RULE = `must be 1..${IDEMPOTENCY_KEY_MAX_CHARS} printable ASCII characters, bare or as one quoted string`;
const BARE = /^[\x20\x21\x23-\x7e]+$/; // printable ASCII without the quote
const refuse = (problem: string): ParsedIdempotencyKey => ({ ok: false, problem: `${RULE} (${problem})` });

/** The inside of `"..."`, unescaped; undefined when a quote or backslash is out of place. */
function unquote(inner: string): string | undefined {
  let key = '';
  for (let i = 0; i < inner.length; i += 1) {
    const c = inner[i] as string;
    if (c === '"') return undefined;
    if (c === '\\') {
      const next = inner[i + 1];
      if (next !== '"' && next !== '\\') return undefined;
      key += next;
      i += 1;
    } else key += c;
  }
  return key;
}

/** Reads one header value as it arrived (Node has already dropped surrounding white space). */
export function parseIdempotencyKey(value: string): ParsedIdempotencyKey {
  if (value === '') return refuse('it is empty');
  if (!/^[\x20-\x7e]*$/.test(value)) return refuse('it holds a control or non-ASCII character');
  let key: string;
  if (value.startsWith('"')) {
    if (value.length < 2 || !value.endsWith('"')) return refuse('a quote is not closed');
    const inner = unquote(value.slice(1, -1));
    if (inner === undefined) return refuse('one quoted string is allowed, with \\" and \\\\ escapes only');
    key = inner;
  } else {
    if (!BARE.test(value)) return refuse('a quote is not opened');
    key = value;
  }
  if (key.length === 0) return refuse('it is empty');
  if (key.length > IDEMPOTENCY_KEY_MAX_CHARS) return refuse(`it has ${key.length} characters`);
  return { ok: true, key };
}

/** How many `Idempotency-Key` lines the request carried (Node joins repeated lines with ", "). */
export function idempotencyHeaderLines(raw: IncomingMessage): number {
  const headers = raw.rawHeaders;
  let lines = 0;
  for (let i = 0; i < headers.length; i += 2) if (headers[i]?.toLowerCase() === IDEMPOTENCY_HEADER) lines += 1;
  return lines;
}
