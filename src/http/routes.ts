import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Tracer } from '@opentelemetry/api';
import { ChatRequestSchema } from '../../schemas/chat-request.schema.ts';
import { ChatResponseSchema, type ChatResponse } from '../../schemas/chat-response.schema.ts';
import {
  BadRequestSchema, ConflictSchema, DetailTextSchema, ForbiddenSchema, InternalErrorSchema, PayloadTooLargeSchema, ServiceUnavailableSchema,
  TooManyRequestsSchema, UnauthorizedSchema, UnprocessableSchema, UnsupportedMediaTypeSchema,
} from '../../schemas/errors.schema.ts';
import { HeartbeatSchema } from '../../schemas/heartbeat.schema.ts';
import { chatPipeline } from '../../steps/chat-pipeline.ts';
import { serverTiming } from '../pipeline/latency.ts';
import { newChatContext, type ChatContext } from '../pipeline/context.ts';
import type { Deps } from '../pipeline/ports.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { Metrics } from '../telemetry/metrics.ts';
import type { RequestMetrics } from '../telemetry/request-metrics.ts';
import { OPENMETRICS_CONTENT_TYPE, wantsOpenMetrics } from '../telemetry/open-metrics.ts';
import { untracedRequestId } from '../telemetry/server-span.ts';
import { stepSpans } from '../telemetry/step-span.ts';
import { takeLatency } from './request-latency.ts';
import type { SessionTurns } from '../turns/create-session-turns.ts';
import { turnSessionCache } from '../turns/turn-session-cache.ts';
import { createChatTurns } from '../turns/chat-turns.ts';
import { chatAdmission } from './chat-admission.ts';
import { sendError } from './error-replies.ts';
import { spanScoped } from './span-scoped-hooks.ts';
import { wantsEventStream } from './stream-accept.ts';
import { streamedChat } from './stream-chat.ts';
import { replayAsStream } from './stream-replay.ts';
import { registerResumeRoutes } from './resume-routes.ts';
import type { StreamLog } from '../streams/stream-log.ts';

/** Runs `run` with the request's server span active, so step and client spans become its children. */
export type InRequestContext = <T>(request: FastifyRequest, run: () => Promise<T>) => Promise<T>;

// Every status the chat can answer, each with its body schema: they serialize the answer and are
// what the OpenAPI document shows (401/403/409/422/429 come from caller auth, idempotency and rate limits).
const chatResponses = {
  200: ChatResponseSchema,
  400: BadRequestSchema,
  401: UnauthorizedSchema,
  403: ForbiddenSchema,
  409: ConflictSchema,
  413: PayloadTooLargeSchema,
  415: UnsupportedMediaTypeSchema,
  422: UnprocessableSchema,
  429: TooManyRequestsSchema,
  500: InternalErrorSchema,
  503: ServiceUnavailableSchema,
};

export interface RouteTelemetry {
  /** When given, `GET /metrics` serves it (Prometheus text format). */
  readonly metrics?: Metrics | undefined;
  /** TRACE_MESSAGE_TEXT: the message goes on the askEngine span. */
  readonly recordMessageText?: boolean;
  /** REQUEST_TIMEOUT_MS (docs/api.md#deadline). */
  readonly requestTimeoutMs: number;
}

/** Idempotent requests and one turn at a time per session (docs/api.md#idempotency, docs/api.md#one-turn-at-a-time-per-session); wired by compose.ts. */
export interface ChatGuards {
  readonly idempotency: IdempotencyStore;
  readonly turns: SessionTurns;
  readonly metrics: RequestMetrics;
  /** Streamed replies' parts for resume and stop (docs/api.md#resuming-a-streamed-reply); none = neither is served. */
  readonly streams?: StreamLog | undefined;
}

/** `GET /heartbeat`, `POST /chat_adapter` (docs/api.md) and `GET /metrics`. */
export function registerRoutes(deps: Deps, inRequestContext: InRequestContext, tracer: Tracer, telemetry: RouteTelemetry, guards: ChatGuards): FastifyPluginAsync {
  const spanOptions = { recordMessageText: telemetry.recordMessageText ?? false };
  /** The deps of one chat: while its turn holds the shared queue, the session comes and goes with the turn. */
  const depsOf = (request: FastifyRequest): Deps => {
    const session = request.chatTurn?.session;
    return session === undefined ? deps : { ...deps, cache: turnSessionCache(deps.cache, session) };
  };
  const metrics = telemetry.metrics;
  // After body validation: the chat's admission (its key, its limits, its session's turn) and its end.
  const admission = chatAdmission({
    turns: createChatTurns(guards.idempotency, guards.turns),
    metrics: guards.metrics,
    requestTimeoutMs: telemetry.requestTimeoutMs,
    tracer,
    streamReplay: replayAsStream,
  });
  // With the request's span active, so that their shared-state warnings carry the chat's trace id.
  const chatHooks = {
    preHandler: spanScoped(admission.preHandler),
    onSend: spanScoped(admission.onSend),
    onResponse: spanScoped(admission.onResponse),
  };

  /** The JSON answer of a finished pipeline: latency taken now, the reply source on the span and in the cache metric. */
  const answerOf = (request: FastifyRequest, ctx: ChatContext): ChatResponse => {
    if (ctx.replySource !== undefined) request.span.setAttribute('chat_adapter.reply_source', ctx.replySource);
    request.cacheHit = ctx.replySource === 'cache';
    // A session with nothing cached is a miss too; backend failures are counted as `error` by the cache itself.
    metrics?.countCacheLookup(ctx.replySource === 'cache' ? 'hit' : 'miss');
    if (ctx.response === undefined) throw new Error('pipeline finished without a response');
    return { ...ctx.response, latency: takeLatency(request, ctx.replySource === 'cache') };
  };
  const streamChat = streamedChat({
    depsOf,
    requestTimeoutMs: telemetry.requestTimeoutMs,
    metrics,
    run: (request, ctx, observer) => inRequestContext(request, () => chatPipeline.run(ctx, depsOf(request), request.timings, observer)),
    stepObserver: (request, ctx) => stepSpans(tracer, request.span, ctx, spanOptions),
    answerOf,
    streams: guards.streams,
  });

  return async (app) => {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();
    // Per-request state of the hooks, as decorations: every request object keeps one shape.
    app.decorateRequest('chatTurn', undefined);

    // Probes and scrapes make no trace: their requests get an id, but no span.
    await app.register(async (untraced) => {
      untraced.setGenReqId(untracedRequestId);
      untraced.get('/heartbeat', { schema: { response: { 200: HeartbeatSchema } } }, async () => ({ success: 1 }));
      if (metrics) {
        // Text exposition, not JSON: no response schema serializes it.
        untraced.get('/metrics', async (request, reply) => {
          // OpenMetrics when the scraper asks for it (Prometheus does): the latency buckets then carry exemplars.
          if (wantsOpenMetrics(request.headers.accept)) {
            void reply.header('content-type', OPENMETRICS_CONTENT_TYPE);
            return metrics.scrapeOpenMetrics();
          }
          void reply.header('content-type', metrics.registry.contentType);
          return metrics.scrape();
        });
      }
    });

    // Other methods on the chat path: 405 naming the one it takes, not a 404 that says it is not there.
    app.route({
      method: ['GET', 'PUT', 'PATCH', 'DELETE'],
      url: '/chat_adapter',
      schema: { hide: true, response: { 405: DetailTextSchema } },
      handler: async (_request, reply) => sendError(reply, 405, 'Method Not Allowed: /chat_adapter takes POST', { allow: 'POST' }),
    });

    if (guards.streams !== undefined) registerResumeRoutes(app, guards.streams);

    typed.post('/chat_adapter', { schema: { body: ChatRequestSchema, response: chatResponses }, ...chatHooks }, async (request, reply) => {
      if (wantsEventStream(request)) return streamChat(request, reply);
      const ctx = newChatContext({
        request: request.body,
        traceId: request.traceId,
        idempotencyKey: request.chatTurn?.idempotencyKey,
        deadlineAt: request.startedAt + telemetry.requestTimeoutMs,
      });
      const observer = stepSpans(tracer, request.span, ctx, spanOptions);
      const runDeps = depsOf(request);
      await inRequestContext(request, () => chatPipeline.run(ctx, runDeps, request.timings, observer));
      const answer = answerOf(request, ctx);
      void reply.header('server-timing', serverTiming(answer.latency));
      return answer;
    });
  };
}
