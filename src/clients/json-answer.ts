/**
 * Reading a party's JSON answer within bounds (docs/api.md#limits): at most `maxBytes` are read (the rest is
 * never buffered: the body is destroyed as soon as it goes over), at most MAX_ANSWER_DEPTH levels of
 * objects and arrays are accepted (the answer itself is level 1), and the members that could reach
 * a prototype (`__proto__`, and `constructor` holding `prototype`) are dropped at every level by
 * secure-json-parse, the rule request bodies are read by too (src/http/json-body.ts refuses them).
 */
import sjson from 'secure-json-parse';
import type { Dispatcher } from 'undici';

export const MAX_ANSWER_DEPTH = 32;

/** Answers most parties give are a few KiB; a list of units or slots stays well under this. */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;

/** Why an answer is out of bounds, in fixed words (safe to log). */
export class AnswerBoundError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(reason);
    this.name = 'AnswerBoundError';
    this.reason = reason;
  }
}

/**
 * The body as text, or AnswerBoundError once more than `maxBytes` arrive (or are announced). Not an
 * async function: an answer with an announced length (the usual case) goes straight to undici's
 * reader, without one more promise per call.
 */
export function readBoundedText(body: Dispatcher.ResponseData['body'], announced: string | string[] | undefined, maxBytes: number): Promise<string> {
  const length = typeof announced === 'string' ? Number(announced) : Number.NaN;
  if (length > maxBytes) {
    body.destroy();
    return Promise.reject(new AnswerBoundError(`answer over ${maxBytes} bytes`));
  }
  // An announced length within the ceiling is all that can arrive (the HTTP parser holds the body
  // to it): undici's own reader is then the cheaper way, about 2 % of a chat's CPU less.
  if (Number.isSafeInteger(length) && length >= 0) return body.text();
  return readChunks(body, maxBytes);
}

/** An answer of unannounced length, chunk by chunk, destroyed as soon as it goes over `maxBytes`. */
async function readChunks(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      body.destroy();
      throw new AnswerBoundError(`answer over ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** Checks the depth (the recursion stops at the limit). */
function checkDepth(value: unknown, depth: number): void {
  if (value === null || typeof value !== 'object') return;
  if (depth > MAX_ANSWER_DEPTH) throw new AnswerBoundError(`answer nested deeper than ${MAX_ANSWER_DEPTH} levels`);
  if (Array.isArray(value)) {
    for (const item of value) checkDepth(item, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  // for...in, not Object.values: no array per object (JSON.parse makes plain objects, whose
  // prototype has no enumerable members).
  for (const name in record) checkDepth(record[name], depth + 1);
}

/**
 * Whether the text has at most `limit` opening brackets, counted even inside strings: a value
 * with that few objects and arrays cannot be nested deeper than `limit` levels.
 */
function bracketsAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      count += 1;
      if (count > limit) return false;
    }
  }
  return true;
}

const PROTOTYPE_MEMBERS = { protoAction: 'remove', constructorAction: 'remove' } as const;

/**
 * secure-json-parse (a SyntaxError for malformed text; prototype members removed), then the depth
 * rule. The walk over the parsed value is skipped when the text itself shows that the depth cannot
 * be over (an ordinary answer: a few brackets): a native string search instead of a visit to every
 * member, on every party's answer of every chat.
 */
export function parseBoundedJson(text: string): unknown {
  const parsed: unknown = sjson.parse(text, undefined, PROTOTYPE_MEMBERS);
  if (!bracketsAtMost(text, MAX_ANSWER_DEPTH)) checkDepth(parsed, 1);
  return parsed;
}
