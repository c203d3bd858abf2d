import type { Dispatcher } from 'undici';
import { is2xx } from './call-failure.ts';

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
    return JSON.parse(this.#text);
  }
}

function plainHeaders(init: RequestInit['headers']): Record<string, string> {
  if (init === undefined) return {};
  if (init instanceof Headers) {
    const out: Record<string, string> = {};
    init.forEach((value, name) => {
      out[name] = value;
    });
    return out;
  }
  return Object.fromEntries(Array.isArray(init) ? init : Object.entries(init)) as Record<string, string>;
}

/**
 * A function with fetch's signature built on `Dispatcher.request` (undici's plain request API),
 * for graphql-request's `fetch` option. undici's WHATWG `fetch` builds Request/Response objects and
 * web streams for every call, several times the CPU of `request` for the same exchange. Only what
 * graphql-request uses is supported: a string body, headers, a signal, a text answer.
 */
export function poolFetch(dispatcher: Dispatcher): typeof fetch {
  const pooled = async (input: URL | string, init: RequestInit = {}): Promise<PooledResponse> => {
    const url = typeof input === 'string' ? new URL(input) : input;
    const res = await dispatcher.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
      headers: plainHeaders(init.headers),
      body: (init.body as string | null | undefined) ?? null,
      signal: init.signal ?? null,
    });
    return new PooledResponse(res.statusCode, res.headers, await res.body.text());
  };
  return pooled as unknown as typeof fetch;
}
