/**
 * Cross-origin calls from browsers (docs/browser-widgets.md#cors), with @fastify/cors: the chat
 * routes (`POST /chat_adapter`, `GET /chat_adapter/{conversation_id}/stream`,
 * `POST /chat_adapter/{conversation_id}/stop`, also under ROUTE_PREFIX) answer an allowed origin's
 * preflight (204, cached for PREFLIGHT_MAX_AGE_S) and its requests with the CORS headers; any other
 * origin or path gets none (its preflight is a 404 like any unknown path), and the decision is
 * logged at debug. Answered in onRequest, before caller authentication: a browser's preflight never
 * carries the key. Registered by the chat plugin (chat-plugin.ts) once per route prefix.
 */
import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyRequest } from 'fastify';
import type { CorsOrigins } from '../config/cors-origins.ts';
import { TRACE_RESPONSE_HEADER } from './trace-response.ts';

/** Chromium's ceiling (2 h): longer values are cut to it, so asking more buys nothing. */
export const PREFLIGHT_MAX_AGE_S = 7200;
/** What a chat front-end sends: JSON, a key, a retry key, a trace to continue, a resume position. */
export const ALLOWED_REQUEST_HEADERS = ['content-type', 'authorization', 'idempotency-key', 'traceparent', 'last-event-id'] as const;
/** What it may read: timings, replays, when to retry, and the trace id to hand to support. */
export const EXPOSED_RESPONSE_HEADERS = ['server-timing', 'idempotent-replayed', 'retry-after', TRACE_RESPONSE_HEADER] as const;

const LOOPBACK_ORIGIN = /^http:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/;
/** An origin longer than this is logged cut short (it is only compared, never stored). */
const LOGGED_ORIGIN_CHARS = 200;

/** Whether `path` (no query) is one of the chat routes a browser may call. */
export function isCorsPath(path: string, routePrefix: string): boolean {
  const rest = routePrefix !== '' && path.startsWith(`${routePrefix}/`) ? path.slice(routePrefix.length) : path;
  if (rest === '/chat_adapter') return true;
  if (!rest.startsWith('/chat_adapter/')) return false;
  // /chat_adapter/{conversation_id}/stream or /stop: one non-empty segment, then the action.
  const tail = rest.slice('/chat_adapter/'.length);
  const slash = tail.indexOf('/');
  if (slash <= 0) return false;
  const action = tail.slice(slash + 1);
  return action === 'stream' || action === 'stop';
}

export function originAllowed(origin: string, allowed: CorsOrigins, exact: ReadonlySet<string>): boolean {
  return exact.has(origin) || (allowed.local && LOOPBACK_ORIGIN.test(origin));
}

/** The publishable keys' origins that `allowed` does not let read answers (a start-up warning each). */
export function originsWithoutCors(keys: readonly { readonly name: string; readonly origins: readonly string[] }[], allowed: CorsOrigins): { name: string; origin: string }[] {
  const exact: ReadonlySet<string> = new Set(allowed.origins);
  return keys.flatMap((key) => key.origins.filter((origin) => !originAllowed(origin, allowed, exact)).map((origin) => ({ name: key.name, origin })));
}

const ALLOWED: FastifyCorsOptions = {
  methods: ['GET', 'POST'],
  allowedHeaders: [...ALLOWED_REQUEST_HEADERS],
  exposedHeaders: [...EXPOSED_RESPONSE_HEADERS],
  maxAge: PREFLIGHT_MAX_AGE_S,
  // Bearer keys, never cookies: credentials mode is not needed and stays off.
  credentials: false,
};

/**
 * What the chat plugin registers @fastify/cors with, in its own scope (so its hook sees the chat
 * routes and its OPTIONS route, nothing else); undefined when no origin is allowed (the default
 * outside local: no hook, no OPTIONS route). `routePrefix` is that scope's prefix.
 */
export function chatCorsOptions(origins: CorsOrigins, routePrefix: string): FastifyCorsOptions | undefined {
  if (!origins.local && origins.origins.length === 0) return undefined;
  const exact: ReadonlySet<string> = new Set(origins.origins);
  const decide = (request: FastifyRequest): FastifyCorsOptions => {
    const origin = request.headers.origin;
    if (origin === undefined) return { origin: false };
    // The OPTIONS route catches every path under the prefix: a preflight is answered for the chat routes only.
    const path = request.url.split('?', 1)[0] ?? '';
    if (!isCorsPath(path, routePrefix)) return { origin: false };
    // An OPTIONS that is not a preflight is a 404 in the detail shape (not @fastify/cors' text/plain 400).
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] === undefined) return { origin: false };
    const allowed = originAllowed(origin, origins, exact);
    request.log.debug({ origin: origin.slice(0, LOGGED_ORIGIN_CHARS), allowed }, allowed ? 'CORS origin allowed' : 'CORS origin not allowed: no CORS headers');
    // The one origin asked about is echoed (never `*`): the answer varies by Origin, which @fastify/cors says in Vary.
    return allowed ? { ...ALLOWED, origin } : { origin: false };
  };
  return { delegator: (request, callback) => callback(null, decide(request)), hideOptionsRoute: true };
}
