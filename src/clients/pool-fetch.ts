import type { Dispatcher } from 'undici';
import { is2xx } from './call-failure.ts';
import { requestBuffered } from './buffered-request.ts';
import { DEFAULT_MAX_ANSWER_BYTES, parseBoundedJson } from './json-answer.ts';

/** The part of a fetch `Response` that graphql-request reads: status, `ok`, a header, the text. */
class PooledResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly #text: string;
  constructor(status: number, headers: Dispatcher.ResponseData['headers'], text: string) {
    this.status = status;
    this.ok = is2xx(status);
    this.headers = {
      get(name) {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
    this.#text = text;
  }
  async text(): Promise<string> {
    return this.#text;
  }
  async json(): Promise<unknown> {
    return parseBoundedJson(this.#text);
  }
}

/** The Headers graphql-request built (accept, content-type) added to `into`. */
function addHeaders(into: Record<string, string>, init: RequestInit['headers']): Record<string, string> {
  if (init === undefined) return into;
  if (init instanceof Headers) {
    init.forEach((value, name) => {
      into[name] = value;
    });
    return into;
  }
  return Object.assign(into, Object.fromEntries(Array.isArray(init) ? init : Object.entries(init)));
}

/** A function with fetch's arguments, plus headers already in undici's plain form. */
export type PoolFetch = (input: URL | string, init?: RequestInit, headers?: Record<string, string>) => Promise<PooledResponse>;

/**
 * A function with fetch's signature built on undici's `dispatch` (buffered-request.ts), for
 * graphql-request's `fetch` option. undici's WHATWG `fetch` builds Request/Response objects and
 * web streams for every call, several times the CPU of the same exchange read whole. Only what
 * graphql-request uses is supported: a string body, headers, a signal, a text answer.
 * `headers` (a fresh object, filled in place) lets a caller send fixed headers without a trip
 * through a WHATWG `Headers` object: a few microseconds per header per call.
 */
export function poolFetch(dispatcher: Dispatcher): PoolFetch {
  // graphql-request calls one URL over and over: its origin and path are read once.
  let last: { href: string; origin: string; path: string } | undefined;
  return async (input, init = {}, headers = {}) => {
    const url = typeof input === 'string' ? new URL(input) : input;
    if (last?.href !== url.href) last = { href: url.href, origin: url.origin, path: url.pathname + url.search };
    // A party's answer is read within a ceiling (docs/api.md#limits), never buffered whole whatever its
    // size; graphql-request reads the answer of every status (GraphQL errors come with a 4xx too).
    const answer = await requestBuffered(dispatcher, {
      origin: last.origin,
      path: last.path,
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: addHeaders(headers, init.headers),
      body: (init.body as string | null | undefined) ?? null,
      signal: init.signal ?? undefined,
      maxBytes: DEFAULT_MAX_ANSWER_BYTES,
      wantsText: () => true,
    });
    return new PooledResponse(answer.statusCode, answer.headers, answer.text);
  };
}
