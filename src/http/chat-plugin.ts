/**
 * The chat (docs/api.md): everything that is the chat's alone, as one plugin that src/app.ts
 * registers once per route prefix (at '' and at ROUTE_PREFIX). Fastify encapsulation keeps its hooks
 * to its own routes, and each gate is a hook of the route it guards, so none asks which URL a
 * request is for.
 *
 * Routes: `POST /chat_adapter`; 405 for its other methods; with a stream log, resume and stop of a
 * streamed reply (resume-routes.ts); with CORS_ORIGINS, the preflights (@fastify/cors' OPTIONS route).
 *
 * After the app's own hooks (request-telemetry.ts, closing-answers.ts), a chat runs, in this order:
 *   onRequest   CORS (every route here: a preflight is answered at once, before any key is asked for)
 *               -> overload (503) -> caller key (401)
 *   preHandler  (the body validated) caller scope (403) -> rate windows named -> concurrency lease (429)
 *               -> admission: Idempotency-Key, replay, 409, 422, rate limits 429, the session's turn
 *   handler     the pipeline, answered as JSON or as a stream (chat-handler.ts)
 *   onSend      no-store -> lease given back -> turn finished (a JSON 200) or abandoned
 *   onResponse  lease given back -> turn abandoned when no answer went out
 * Resume and stop take the caller key (401) alone; the 405 route none of the gate.
 */
import fastifyCors from '@fastify/cors';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Tracer } from '@opentelemetry/api';
import { ChatRequestSchema } from '../../schemas/chat-request.schema.ts';
import { DetailTextSchema } from '../../schemas/errors.schema.ts';
import type { CorsOrigins } from '../config/cors-origins.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { Deps } from '../pipeline/ports.ts';
import type { StreamLog } from '../streams/stream-log.ts';
import type { Metrics } from '../telemetry/metrics.ts';
import type { RequestMetrics } from '../telemetry/request-metrics.ts';
import { createChatTurns } from '../turns/chat-turns.ts';
import type { SessionTurns } from '../turns/session-turns.ts';
import { callerAuth, type CallerAuthOptions } from './caller-auth.ts';
import { chatAdmission } from './chat-admission.ts';
import { chatHandler, chatResponses } from './chat-handler.ts';
import { concurrencyLimits, type ConcurrencyLimitSettings } from './concurrency-limits.ts';
import { chatCorsOptions } from './cors.ts';
import { sendError } from './error-replies.ts';
import type { RequestHook, SendHook } from './hook-outcome.ts';
import { overloadShedding } from './overload.ts';
import { rateLimits, type RateLimitSettings } from './rate-limits.ts';
import { registerResumeRoutes } from './resume-routes.ts';
import { spanScoped } from './span-scoped-hooks.ts';
import { replayAsStream } from './stream-replay.ts';

/** Idempotent requests and one turn at a time per session (docs/api.md#idempotency, docs/api.md#one-turn-at-a-time-per-session); wired by compose.ts. */
export interface ChatGuards {
  readonly idempotency: IdempotencyStore;
  readonly turns: SessionTurns;
  readonly metrics: RequestMetrics;
  /** Streamed replies' parts for resume and stop (docs/api.md#resuming-a-streamed-reply); none = neither is served. */
  readonly streams?: StreamLog | undefined;
}

export interface ChatPluginOptions extends CallerAuthOptions {
  readonly deps: Deps;
  readonly tracer: Tracer;
  /** Prometheus metrics (src/telemetry/metrics.ts): cache lookups, streams, shed chats. */
  readonly metrics?: Metrics | undefined;
  /** TRACE_MESSAGE_TEXT: the message goes on the askEngine span. Default false. */
  readonly recordMessageText?: boolean | undefined;
  /** REQUEST_TIMEOUT_MS (docs/api.md#deadline): the deadline of every chat. */
  readonly requestTimeoutMs: number;
  /** Idempotency store and session turns (docs/api.md#idempotency, docs/api.md#one-turn-at-a-time-per-session). */
  readonly requestGuards: ChatGuards;
  /** docs/api.md#rate-limits (compose.ts passes the configured limits); unset = no rate limits. */
  readonly rateLimits?: RateLimitSettings | undefined;
  /** docs/api.md#overload-and-input-depth: chats are shed while the event loop lags more than this (compose.ts passes the configured 1000 ms); unset or 0 = off. */
  readonly overloadMaxEventLoopDelayMs?: number | undefined;
  /** docs/api.md#fair-shares: chats in flight per client and organisation; unset = no ceilings. */
  readonly concurrency?: ConcurrencyLimitSettings | undefined;
  /** CORS_ORIGINS (docs/browser-widgets.md#cors); unset = no cross-origin calls. */
  readonly corsOrigins?: CorsOrigins | undefined;
}

/** docs/api.md#limits: a chat's answers (visitor text, contact details), refusals included, are never cached on the way. */
const noStore: SendHook = (_request, reply, payload, done) => {
  void reply.header('cache-control', 'no-store');
  done(null, payload);
};

/** The hooks that are configured, in the order given. */
function present<H>(...hooks: (H | undefined)[]): H[] {
  return hooks.filter((hook): hook is H => hook !== undefined);
}

/**
 * Built once, registered per route prefix: the key digests, the in-process rate windows and the
 * admission are shared, so a client counts once whichever path it chats on.
 */
export function chatPlugin(options: ChatPluginOptions): FastifyPluginAsync {
  const streams = options.requestGuards.streams;
  const auth = callerAuth(options);
  const rates = rateLimits(options.rateLimits);
  const ceilings = concurrencyLimits(options.concurrency);
  // After body validation: the chat's admission (its key, its limits, its session's turn) and its end,
  // with the request's span active so that their shared-state warnings carry the chat's trace id.
  const admission = chatAdmission({
    turns: createChatTurns(options.requestGuards.idempotency, options.requestGuards.turns),
    metrics: options.requestGuards.metrics,
    requestTimeoutMs: options.requestTimeoutMs,
    tracer: options.tracer,
    streamReplay: replayAsStream,
  });
  const handle = chatHandler({ ...options, streams });

  return async (chat) => {
    // Per-request state of the chat's hooks, as decorations: every request object keeps one shape.
    chat.decorateRequest('caller', undefined);
    chat.decorateRequest('rateLimitWindows', undefined);
    chat.decorateRequest('concurrencyRelease', undefined);
    chat.decorateRequest('chatTurn', undefined);
    // A hook of this whole scope, first of the chat's: a preflight (which never carries the key) is answered before the gate.
    const cors = options.corsOrigins === undefined ? undefined : chatCorsOptions(options.corsOrigins, chat.prefix);
    if (cors !== undefined) await chat.register(fastifyCors, cors);
    // Its sampler lives in this scope (one per prefix); the hook is the chat route's.
    const shed = overloadShedding(chat, { overloadMaxEventLoopDelayMs: options.overloadMaxEventLoopDelayMs, onShed: options.metrics?.countShed });
    const typed = chat.withTypeProvider<TypeBoxTypeProvider>();

    // Other methods on the chat path: 405 naming the one it takes, not a 404 that says it is not there.
    typed.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'],
      url: '/chat_adapter',
      schema: { hide: true, response: { 405: DetailTextSchema } },
      handler: async (_request, reply) => sendError(reply, 405, 'Method Not Allowed: /chat_adapter takes POST', { allow: 'POST' }),
    });

    if (streams !== undefined) registerResumeRoutes(chat, streams, auth?.onRequest);

    typed.post('/chat_adapter', {
      schema: { body: ChatRequestSchema, response: chatResponses },
      onRequest: present<RequestHook>(shed, auth?.onRequest),
      preHandler: present<RequestHook>(auth?.preHandler, rates, ceilings?.preHandler, spanScoped(admission.preHandler)),
      onSend: present<SendHook>(noStore, ceilings?.onSend, spanScoped(admission.onSend)),
      onResponse: present<RequestHook>(ceilings?.onResponse, spanScoped(admission.onResponse)),
    }, handle);
  };
}
