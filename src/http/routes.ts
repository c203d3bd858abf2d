import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Tracer } from '@opentelemetry/api';
import { ChatRequestSchema } from '../../schemas/chat-request.schema.ts';
import { ChatResponseSchema } from '../../schemas/chat-response.schema.ts';
import {
  BadRequestSchema, ConflictSchema, ForbiddenSchema, InternalErrorSchema, PayloadTooLargeSchema, ServiceUnavailableSchema,
  TooManyRequestsSchema, UnauthorizedSchema, UnprocessableSchema, UnsupportedMediaTypeSchema,
} from '../../schemas/errors.schema.ts';
import { HeartbeatSchema } from '../../schemas/heartbeat.schema.ts';
import { chatPipeline } from '../../steps/chat-pipeline.ts';
import { serverTiming } from '../pipeline/latency.ts';
import { newChatContext } from '../pipeline/context.ts';
import type { Deps } from '../pipeline/ports.ts';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { Metrics } from '../telemetry/metrics.ts';
import type { RequestMetrics } from '../telemetry/request-metrics.ts';
import { untracedRequestId } from '../telemetry/server-span.ts';
import { stepSpans } from '../telemetry/step-span.ts';
import { takeLatency } from './request-latency.ts';
import type { SessionTurns } from '../turns/create-session-turns.ts';
import { idempotencyHooks } from './idempotency.ts';
import { sessionTurnHooks } from './session-turns.ts';

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
}

/** `GET /heartbeat`, `POST /chat_adapter` (docs/api.md) and `GET /metrics`. */
export function registerRoutes(deps: Deps, inRequestContext: InRequestContext, tracer: Tracer, telemetry: RouteTelemetry, guards: ChatGuards): FastifyPluginAsync {
  const spanOptions = { recordMessageText: telemetry.recordMessageText ?? false };
  const metrics = telemetry.metrics;
  // After body validation, in this order: the Idempotency-Key check and claim, then the session's turn.
  const idempotency = idempotencyHooks(guards.idempotency, guards.metrics);
  const turns = sessionTurnHooks(guards.turns, guards.metrics, telemetry.requestTimeoutMs);
  const chatHooks = {
    preHandler: [idempotency.preHandler, turns.preHandler],
    onSend: [turns.onSend, idempotency.onSend],
    onResponse: [turns.onResponse, idempotency.onResponse],
  };

  return async (app) => {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();
    // Per-request state of the hooks, as decorations: every request object keeps one shape.
    app.decorateRequest('idempotencyClaim', undefined);
    app.decorateRequest('sessionTurn', undefined);

    // Probes and scrapes make no trace: their requests get an id, but no span.
    await app.register(async (untraced) => {
      untraced.setGenReqId(untracedRequestId);
      untraced.get('/heartbeat', { schema: { response: { 200: HeartbeatSchema } } }, async () => ({ success: 1 }));
      if (metrics) {
        // Text exposition, not JSON: no response schema serializes it.
        untraced.get('/metrics', async (_request, reply) => {
          void reply.header('content-type', metrics.registry.contentType);
          return metrics.scrape();
        });
      }
    });

    typed.post('/chat_adapter', { schema: { body: ChatRequestSchema, response: chatResponses }, ...chatHooks }, async (request, reply) => {
      const ctx = newChatContext({
        request: request.body,
        traceId: request.traceId,
        idempotencyKey: idempotency.keyOf(request),
        deadlineAt: request.startedAt + telemetry.requestTimeoutMs,
      });
      const observer = stepSpans(tracer, request.span, ctx, spanOptions);
      await inRequestContext(request, () => chatPipeline.run(ctx, deps, request.timings, observer));
      if (ctx.replySource !== undefined) request.span.setAttribute('chat_adapter.reply_source', ctx.replySource);
      // A session with nothing cached is a miss too; backend failures are counted as `error` by the cache itself.
      metrics?.countCacheLookup(ctx.replySource === 'cache' ? 'hit' : 'miss');
      const latency = takeLatency(request, ctx.replySource === 'cache');
      void reply.header('server-timing', serverTiming(latency));
      if (ctx.response === undefined) throw new Error('pipeline finished without a response');
      return { ...ctx.response, latency };
    });
  };
}
