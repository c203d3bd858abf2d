/**
 * What `POST /chat_adapter` does once its gate let it through and it holds its turn (chat-plugin.ts
 * declares the route and its hooks): builds the ChatContext from the validated body, runs the
 * pipeline with the request's span active, and answers JSON (latency and `Server-Timing` added), or
 * an event stream when the caller asks for one (stream-chat.ts): the same steps either way.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tracer } from '@opentelemetry/api';
import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import { ChatResponseSchema, type ChatResponse } from '../../schemas/chat-response.schema.ts';
import {
  BadRequestSchema, ConflictSchema, ForbiddenSchema, InternalErrorSchema, PayloadTooLargeSchema, ServiceUnavailableSchema,
  TooManyRequestsSchema, UnauthorizedSchema, UnprocessableSchema, UnsupportedMediaTypeSchema,
} from '../../schemas/errors.schema.ts';
import { chatPipeline } from '../../steps/chat-pipeline.ts';
import { serverTiming } from '../pipeline/latency.ts';
import { newChatContext, type ChatContext } from '../pipeline/context.ts';
import type { Deps } from '../pipeline/ports.ts';
import type { StreamLog } from '../streams/stream-log.ts';
import type { Metrics } from '../telemetry/metrics.ts';
import { stepSpans } from '../telemetry/fast/step-span.ts';
import { turnSessionCache } from '../turns/turn-session-cache.ts';
import { takeLatency } from './request-latency.ts';
import { inRequestSpan } from './span-scoped-hooks.ts';
import { wantsEventStream } from './stream-accept.ts';
import { streamedChat } from './stream-chat.ts';

// Every status the chat can answer, each with its body schema: they serialize the answer and are
// what the OpenAPI document shows (401/403/409/422/429 come from caller auth, idempotency and rate limits).
export const chatResponses = {
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

export interface ChatHandlerSettings {
  readonly deps: Deps;
  readonly tracer: Tracer;
  /** Cache lookups and streams are counted here. */
  readonly metrics?: Metrics | undefined;
  /** TRACE_MESSAGE_TEXT: the message goes on the askEngine span. */
  readonly recordMessageText?: boolean | undefined;
  /** REQUEST_TIMEOUT_MS (docs/api.md#deadline). */
  readonly requestTimeoutMs: number;
  /** Streamed replies' parts for resume and stop (docs/api.md#resuming-a-streamed-reply). */
  readonly streams?: StreamLog | undefined;
}

export type ChatHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<ChatResponse | undefined>;

export function chatHandler(settings: ChatHandlerSettings): ChatHandler {
  const { deps, tracer, metrics } = settings;
  const spanOptions = { recordMessageText: settings.recordMessageText ?? false };
  /** The deps of one chat: while its turn holds the shared queue, the session comes and goes with the turn. */
  const depsOf = (request: FastifyRequest): Deps => {
    const session = request.chatTurn?.session;
    return session === undefined ? deps : { ...deps, cache: turnSessionCache(deps.cache, session) };
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
    requestTimeoutMs: settings.requestTimeoutMs,
    metrics,
    run: (request, ctx, observer) => inRequestSpan(request, () => chatPipeline.run(ctx, depsOf(request), request.timings, observer)),
    stepObserver: (request, ctx) => stepSpans(tracer, request.span, ctx, spanOptions),
    answerOf,
    streams: settings.streams,
  });

  return async (request, reply) => {
    if (wantsEventStream(request)) {
      await streamChat(request, reply);
      return undefined;
    }
    const ctx = newChatContext({
      request: request.body as ChatRequest,
      traceId: request.traceId,
      idempotencyKey: request.chatTurn?.idempotencyKey,
      deadlineAt: request.startedAt + settings.requestTimeoutMs,
    });
    const observer = stepSpans(tracer, request.span, ctx, spanOptions);
    const runDeps = depsOf(request);
    await inRequestSpan(request, () => chatPipeline.run(ctx, runDeps, request.timings, observer));
    const answer = answerOf(request, ctx);
    void reply.header('server-timing', serverTiming(answer.latency));
    return answer;
  };
}
