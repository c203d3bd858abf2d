/**
 * A chat answered as a UI message stream (docs/api.md#streamed-replies): a way of answering, not a second pipeline.
 * The same steps run over the same context; the stream is fed by what already exists: the step
 * observer (progress parts), the engine's text released by askEngine while it is written, the
 * reply once translateReply made it final, and the assembled answer (the `data-chat` part).
 *
 * The stream opens once the request is valid (after validateRequest): every failure before that
 * is the ordinary JSON error. The turn is the turn: its idempotency record is written and the
 * session's next message let go only when the pipeline ended, whether or not the caller stayed.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatResponse } from '../../schemas/chat-response.schema.ts';
import { newChatContext, type ChatContext } from '../pipeline/context.ts';
import { roundMs } from '../pipeline/latency.ts';
import type { Deps } from '../pipeline/ports.ts';
import type { StepObserver, StepTiming } from '../pipeline/runner.ts';
import type { Metrics } from '../telemetry/metrics.ts';
import type { StreamLog } from '../streams/stream-log.ts';
import { takeTurn } from './chat-admission.ts';
import { markStreamed } from './request-outcome.ts';
import { endFailed, endStopped, settle, type OpenStream } from './stream-endings.ts';
import { UiMessageStreamWriter } from './stream-writer.ts';

/** The step after which the request is known to be valid: the stream opens there. */
const VALIDATED = 'validateRequest';
/** The step after which the reply text is final (formatted, translated when it must be). */
const TEXT_FINAL = 'translateReply';
/** A stop is taken until this step ends (docs/api.md#stopping-a-streamed-reply): after it the reply is whole. */
const STOPPABLE_UNTIL = 'askEngine';

export interface StreamedChatSettings {
  /** The chat's deps (its turn's session cache while the turn holds the session). */
  readonly depsOf: (request: FastifyRequest) => Deps;
  readonly requestTimeoutMs: number;
  readonly metrics: Metrics | undefined;
  /** Runs the pipeline with the request's span active (as the JSON path does). */
  readonly run: (request: FastifyRequest, ctx: ChatContext, observer: StepObserver | undefined) => Promise<unknown>;
  /** The request's step spans, if it is traced. */
  readonly stepObserver: (request: FastifyRequest, ctx: ChatContext) => StepObserver | undefined;
  /** The JSON answer of a finished pipeline (latency taken now), as a JSON caller gets it. */
  readonly answerOf: (request: FastifyRequest, ctx: ChatContext) => ChatResponse;
  /** Keeps the parts for resumers and carries stops (docs/api.md#resuming-a-streamed-reply); none = neither. */
  readonly streams?: StreamLog | undefined;
}

/** Per chat: the stream once it is open, and whether a stop may still abort the engine call. */
interface StreamState {
  writer: UiMessageStreamWriter | undefined;
  stoppable: boolean;
  /** Stop (resume-routes.ts -> the stream log -> here): aborts the engine call while it runs. */
  readonly stop: AbortController;
}

/** Opens the stream once the request is valid: the route writes the answer itself from here on. */
function openStream(settings: StreamedChatSettings, request: FastifyRequest, reply: FastifyReply, ctx: ChatContext, state: StreamState): UiMessageStreamWriter {
  // Fastify's onSend hooks never run for a hijacked reply.
  void reply.hijack();
  markStreamed(request);
  const messageId = `${ctx.requestId ?? ''}:answer`;
  const body = request.body as ChatContext['request'];
  const log = settings.streams?.open(body.conversation_id, { messageId, scope: { orgId: body.orgId, propertyId: body.propertyId, sessionId: body.session_id } });
  log?.onStop(() => {
    if (state.stoppable) state.stop.abort();
  });
  const opened = new UiMessageStreamWriter(reply.raw, reply.getHeaders(), log);
  opened.start(messageId);
  for (const t of request.timings) opened.step(t.name, roundMs(t.ms));
  return opened;
}

/** The step observer that feeds the stream: its spans, then a progress part per step, the final text after TEXT_FINAL. */
function streamObserver(settings: StreamedChatSettings, request: FastifyRequest, reply: FastifyReply, ctx: ChatContext, state: StreamState): StepObserver {
  const spans = settings.stepObserver(request, ctx);
  return {
    enter: (name, startedAt) => spans?.enter(name, startedAt),
    leave(timing: StepTiming, startedAt, endedAt, scope, result) {
      spans?.leave(timing, startedAt, endedAt, scope, result);
      if (timing.name === STOPPABLE_UNTIL) state.stoppable = false;
      if (!timing.ok) return;
      if (state.writer === undefined) {
        if (timing.name === VALIDATED) state.writer = openStream(settings, request, reply, ctx, state);
        return;
      }
      state.writer.step(timing.name, roundMs(timing.ms));
      if (timing.name === TEXT_FINAL && ctx.reply !== undefined && !state.writer.completeText(ctx.reply.response, performance.now())) {
        request.log.error({ step: TEXT_FINAL }, 'streamed text is not the start of the reply');
      }
    },
  };
}

/** The finished pipeline's answer as the `data-chat` part, kept for its key before it goes out. */
async function complete(settings: StreamedChatSettings, open: OpenStream, ctx: ChatContext): Promise<void> {
  const { request, reply, stream } = open;
  let body: string;
  try {
    // The route's 200 response schema serializes it: the same bytes a JSON caller gets.
    const serialized = reply.serialize(settings.answerOf(request, ctx));
    if (typeof serialized !== 'string') throw new TypeError('the chat answer did not serialize to text');
    body = serialized;
    // Kept before it goes out, so that a retry after this answer is always a replay; then the
    // session's turn is stored and its next message let go.
    await takeTurn(request)?.finish(body);
  } catch (err) {
    await endFailed(open, err);
    return;
  }
  stream.completeText(ctx.response?.response ?? '', performance.now());
  stream.chat(body);
  stream.finish();
  settle(open, 'completed');
}

export function streamedChat(settings: StreamedChatSettings) {
  return async function streamChat(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const state: StreamState = { writer: undefined, stoppable: true, stop: new AbortController() };
    const ctx = newChatContext({
      stopSignal: state.stop.signal,
      request: request.body as ChatContext['request'],
      traceId: request.traceId,
      idempotencyKey: request.chatTurn?.idempotencyKey,
      deadlineAt: request.startedAt + settings.requestTimeoutMs,
      textOut: { release: (text) => state.writer?.text(text, performance.now()) },
    });
    const observer = streamObserver(settings, request, reply, ctx, state);
    const openOf = (stream: UiMessageStreamWriter): OpenStream => ({ request, reply, stream, metrics: settings.metrics });
    try {
      await settings.run(request, ctx, observer);
    } catch (err) {
      // Before the stream opened, the ordinary JSON error answers it (the hooks settle the turn).
      if (state.writer === undefined) throw err;
      if (state.stop.signal.aborted) await endStopped(openOf(state.writer), ctx, settings.depsOf(request));
      else await endFailed(openOf(state.writer), err);
      return;
    }
    if (state.writer === undefined) throw new Error('the pipeline finished without validating the request');
    await complete(settings, openOf(state.writer), ctx);
  };
}
