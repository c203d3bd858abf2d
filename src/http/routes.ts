import { performance } from 'node:perf_hooks';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Tracer } from '@opentelemetry/api';
import { ChatRequestSchema } from '../../schemas/chat-request.schema.ts';
import { ChatResponseSchema } from '../../schemas/chat-response.schema.ts';
import { DetailTextSchema, DetailWithTraceSchema } from '../../schemas/errors.schema.ts';
import { HeartbeatSchema } from '../../schemas/heartbeat.schema.ts';
import { chatPipeline, latencyFrom, serverTiming } from '../chat-pipeline.ts';
import type { ChatContext } from '../pipeline/context.ts';
import type { Deps } from '../pipeline/deps.ts';
import type { StepInstrument } from '../pipeline/runner.ts';
import { recordSpan } from '../telemetry/span.ts';

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

/** `GET /heartbeat` and `POST /chat_adapter` (SPEC 4). */
export function registerRoutes(deps: Deps, inRequestContext: InRequestContext, tracer: Tracer): FastifyPluginAsync {
  const instrument: StepInstrument = (name, run) => recordSpan(tracer, name, {}, run);

  return async (app) => {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

    typed.get('/heartbeat', { schema: { response: { 200: HeartbeatSchema } } }, async () => ({ success: 1 }));

    typed.post('/chat_adapter', { schema: { body: ChatRequestSchema, response: chatResponses } }, async (request, reply) => {
      const ctx: ChatContext = { request: request.body, traceId: request.traceId, idempotencyKey: idempotencyKey(request) };
      await inRequestContext(request, () => chatPipeline.run(ctx, deps, request.timings, instrument));
      if (ctx.replySource !== undefined) request.span.setAttribute('chat_adapter.reply_source', ctx.replySource);
      const latency = latencyFrom(request.timings, performance.now() - request.startedAt, ctx.replySource === 'cache');
      void reply.header('server-timing', serverTiming(latency));
      if (ctx.response === undefined) throw new Error('pipeline finished without a response');
      return { ...ctx.response, latency };
    });
  };
}
