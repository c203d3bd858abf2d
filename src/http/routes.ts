import { performance } from 'node:perf_hooks';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Tracer } from '@opentelemetry/api';
import { ChatRequestSchema } from '../../schemas/chat-request.schema.ts';
import { ChatResponseSchema } from '../../schemas/chat-response.schema.ts';
import { DetailTextSchema, DetailWithTraceSchema } from '../../schemas/errors.schema.ts';
import { HeartbeatSchema } from '../../schemas/heartbeat.schema.ts';
import { chatPipeline } from '../../steps/chat-pipeline.ts';
import { latencyFrom, serverTiming } from '../pipeline/latency.ts';
import type { ChatContext } from '../pipeline/context.ts';
import type { Deps } from '../pipeline/ports.ts';
import type { Metrics } from '../telemetry/metrics.ts';
import { untracedRequestId } from '../telemetry/server-span.ts';
import { stepSpans } from '../telemetry/step-span.ts';

/** Runs `run` with the request's server span active, so step and client spans become its children. */
export type InRequestContext = <T>(request: FastifyRequest, run: () => Promise<T>) => Promise<T>;

const chatResponses = {
  200: ChatResponseSchema,
  400: DetailWithTraceSchema,
  413: DetailTextSchema,
  415: DetailTextSchema,
  500: DetailWithTraceSchema,
  503: DetailTextSchema,
};

function idempotencyKey(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  return typeof value === 'string' ? value : undefined;
}

export interface RouteTelemetry {
  /** When given, `GET /metrics` serves it (Prometheus text format). */
  readonly metrics?: Metrics | undefined;
  /** TRACE_MESSAGE_TEXT: the message goes on the askEngine span. */
  readonly recordMessageText?: boolean;
  /** REQUEST_TIMEOUT_MS (CONTRACTS 6.1). */
  readonly requestTimeoutMs: number;
}

/** `GET /heartbeat`, `POST /chat_adapter` (SPEC 4) and `GET /metrics`. */
export function registerRoutes(deps: Deps, inRequestContext: InRequestContext, tracer: Tracer, telemetry: RouteTelemetry): FastifyPluginAsync {
  const spanOptions = { recordMessageText: telemetry.recordMessageText ?? false };
  const metrics = telemetry.metrics;

  return async (app) => {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

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

    typed.post('/chat_adapter', { schema: { body: ChatRequestSchema, response: chatResponses } }, async (request, reply) => {
      const ctx: ChatContext = {
        request: request.body,
        traceId: request.traceId,
        idempotencyKey: idempotencyKey(request),
        deadlineAt: request.startedAt + telemetry.requestTimeoutMs,
      };
      const observer = stepSpans(tracer, request.span, ctx, spanOptions);
      await inRequestContext(request, () => chatPipeline.run(ctx, deps, request.timings, observer));
      if (ctx.replySource !== undefined) request.span.setAttribute('chat_adapter.reply_source', ctx.replySource);
      // A session with nothing cached is a miss too; backend failures are counted as `error` by the cache itself.
      metrics?.countCacheLookup(ctx.replySource === 'cache' ? 'hit' : 'miss');
      const latency = latencyFrom(request.timings, performance.now() - request.startedAt, ctx.replySource === 'cache');
      void reply.header('server-timing', serverTiming(latency));
      if (ctx.response === undefined) throw new Error('pipeline finished without a response');
      return { ...ctx.response, latency };
    });
  };
}
