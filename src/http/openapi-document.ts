/**
 * What the OpenAPI document says besides the route schemas: the title and the versioning notice of docs/api.md#versioning, the
 * bearer scheme (docs/api.md#caller-keys), and per route its summary, tags, security, the `Idempotency-Key`
 * header, response headers and examples. Applied when the document is generated (@fastify/swagger's
 * `transform`), never to the schemas that validate and serialize.
 */
import type { SwaggerTransform } from '@fastify/swagger';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifySchema } from 'fastify';
import { CHAT_REQUEST_EXAMPLE, CHAT_RESPONSE_EXAMPLE } from '../../schemas/chat-examples.ts';

export const OPENAPI_INFO = {
  title: 'Chat adapter',
  version: '1.5',
  description: [
    '**Version 1.5: under review. This version contains breaking changes**: check the request and response shapes below against your client before upgrading.',
    '',
    'The chat adapter validates a chat message, asks the NLP engine for intent and reply, answers live questions from the property API, translates to Spanish when asked, stores question and answer, extracts contact details, starts human handoffs, and reports per-step latency. Paths carry no version segment.',
    '',
    'Pages: `/docs` (this reference, with "Try it out"), `/playground` (a chat page, in `ENVIRONMENT=local` or with `PLAYGROUND=true`).',
  ].join('\n'),
  'x-status': 'under review',
};

export const OPENAPI_TAGS = [
  { name: 'chat', description: 'The chat endpoint front-ends post messages to' },
  { name: 'operations', description: 'Liveness, readiness and metrics for load balancers, orchestrators and Prometheus' },
];

export const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    description: 'A caller key of `CALLER_API_KEYS`, or from browser code a publishable key (`pk_...`) of `PUBLISHABLE_KEYS` sent from one of its origins, for `POST /chat_adapter` (needed only when either variable is set); `ADMIN_API_KEY` for `/admin` routes.',
  },
} as const;

const header = (description: string, schema: TSchema = Type.String()) => ({ ...schema, description });
const SERVER_TIMING = header('The step durations of `latency.steps` and the total, e.g. `askEngine;dur=4.13, total;dur=21.90`');
const RETRY_AFTER = header('Seconds to wait before retrying', Type.Integer({ minimum: 0 }));
const TRACE_RESPONSE = header('W3C `traceresponse`: `00-<trace id>-<span id>-<flags>`; the trace id of this answer, whatever its status (docs/api.md#trace-id-header)');

/** `traceresponse` on every status of a route's responses. */
function withTraceResponse(response: NonNullable<RouteSchema['response']>): NonNullable<RouteSchema['response']> {
  return Object.fromEntries(Object.entries(response).map(([status, r]) => [status, { ...r, headers: { ...(r['headers'] as object | undefined), traceresponse: TRACE_RESPONSE } }]));
}

const IDEMPOTENCY_KEY = Type.String({
  minLength: 1,
  maxLength: 257,
  pattern: '^[ -~]+$',
  description:
    'Optional: 1..255 printable ASCII characters, bare or as a quoted string, e.g. a UUID. A retry with the same key and the same request stores nothing twice and gets the same answer again (`Idempotent-Replayed: true`); the same key with another request is refused (422). On this page, "Try it out" with the field left empty sends a new key each time.',
  // No example value: the reference page would fill it into "Try it out", and a second run with an
  // edited message would then reuse the key (422).
});

interface RouteSchema {
  [key: string]: unknown;
  response?: Record<string, Record<string, unknown>>;
  headers?: { properties?: Record<string, unknown> } | undefined;
  body?: Record<string, unknown>;
}

/** Adds a response's documented headers, only in the document. */
function withResponseHeaders(response: RouteSchema['response'], headers: Record<string, Record<string, Record<string, unknown>>>) {
  const copy = { ...response };
  for (const [status, extra] of Object.entries(headers)) {
    const existing = copy[status];
    if (existing !== undefined) copy[status] = { ...existing, headers: { ...(existing['headers'] as object | undefined), ...extra } };
  }
  return copy;
}

/**
 * A member with a default is filled in before `required` is checked (Ajv `useDefaults`), so for a
 * caller it is optional: the document says so.
 */
function callerRequired(body: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (body === undefined || !Array.isArray(body['required'])) return body;
  const properties = (body['properties'] ?? {}) as Record<string, { default?: unknown }>;
  return { ...body, required: (body['required'] as string[]).filter((name) => properties[name]?.default === undefined) };
}

function chatRoute(schema: RouteSchema): RouteSchema {
  const properties = schema.headers?.properties ?? {};
  const hasKey = Object.keys(properties).some((name) => name.toLowerCase() === 'idempotency-key');
  const response = schema.response ?? {};
  return {
    ...schema,
    summary: 'Answer one chat message',
    description:
      'Runs the processing rules (validate, session, language, engine, property API, format, translate, contacts, store, handoff) and answers with the reply, its classification and per-step latency. Needs `Authorization: Bearer <key>` only when `CALLER_API_KEYS` or `PUBLISHABLE_KEYS` is set (a publishable key only with an `Origin` it lists). With `Accept: text/event-stream` the 200 answer is a server-sent event stream in the AI SDK UI message stream protocol v1 (`start`, transient `data-step` parts, `text-start`/`text-delta`/`text-end`, `data-chat` holding this same JSON answer, `finish`, `[DONE]`); errors before it are the JSON errors below, a failure after it started an `error` part.',
    tags: ['chat'],
    security: [{ bearerAuth: [] }, {}],
    headers: hasKey ? schema.headers : Type.Object({ ...properties, 'Idempotency-Key': Type.Optional(IDEMPOTENCY_KEY) }),
    body: { ...callerRequired(schema.body), examples: [CHAT_REQUEST_EXAMPLE] },
    response: withTraceResponse(withResponseHeaders(
      { ...response, 200: { ...response['200'], description: 'The reply', examples: [CHAT_RESPONSE_EXAMPLE] } },
      {
        200: { 'Server-Timing': SERVER_TIMING, 'Idempotent-Replayed': header('`true` when this is the kept answer to an earlier request with the same `Idempotency-Key`') },
        401: { 'WWW-Authenticate': header('`Bearer`') },
        409: { 'Retry-After': RETRY_AFTER },
        429: {
          'Retry-After': RETRY_AFTER,
          'RateLimit-Limit': header('Requests allowed per window', Type.Integer()),
          'RateLimit-Remaining': header('Requests left in this window', Type.Integer()),
          'RateLimit-Reset': header('Seconds until the window resets', Type.Integer()),
        },
        503: { 'Server-Timing': SERVER_TIMING, 'Retry-After': RETRY_AFTER },
      },
    )),
  };
}

const ROUTE_TEXTS: Readonly<Record<string, (schema: RouteSchema) => RouteSchema>> = {
  'POST /chat_adapter': chatRoute,
  'GET /heartbeat': (schema) => ({
    ...schema,
    summary: 'Liveness: the process answers',
    description: 'Checks nothing downstream (see `GET /ready`). Needs no key.',
    tags: ['operations'],
    response: { 200: { ...schema.response?.['200'], description: 'Alive', examples: [{ success: 1 }] } },
  }),
  'GET /metrics': (schema) => ({
    ...schema,
    summary: 'Prometheus metrics',
    description: 'Text exposition format: requests, steps, downstream calls, cache, handoffs, process. Needs no key.',
    tags: ['operations'],
    produces: ['text/plain'],
    response: { 200: { type: 'string', description: 'Prometheus text format 0.0.4' } },
  }),
};

/** @fastify/swagger `transform`: the route's schema as the document shows it. */
export function documentRoute(routePrefix: string): SwaggerTransform {
  return ({ schema, url, route }) => {
    const path = routePrefix !== '' && url.startsWith(`${routePrefix}/`) ? url.slice(routePrefix.length) : url;
    const method = Array.isArray(route.method) ? route.method[0] : route.method;
    const base = (schema ?? {}) as RouteSchema;
    const text = ROUTE_TEXTS[`${method} ${path}`];
    const documented: RouteSchema =
      text !== undefined ? text(base) : path === '/admin' || path.startsWith('/admin/') ? { tags: ['admin'], ...base, security: [{ bearerAuth: [] }] } : base;
    return { schema: documented as FastifySchema, url };
  };
}
