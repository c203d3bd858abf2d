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
import { chatPipeline } from '../../steps/chat-pipeline.ts';
import { newChatContext, type ChatContext } from '../pipeline/context.ts';
import { roundMs } from '../pipeline/latency.ts';
import type { Deps } from '../pipeline/ports.ts';
import type { StepObserver, StepTiming } from '../pipeline/runner.ts';
import type { Metrics, StreamOutcome } from '../telemetry/metrics.ts';
import { describeError, stackFrames } from '../telemetry/safe-error.ts';
import { recordError } from '../telemetry/span.ts';
import { errorReply } from './error-replies.ts';
import { takeTurn } from './chat-admission.ts';
import { markClientGone, markFailed, markStreamed } from './request-outcome.ts';
import { UiMessageStreamWriter } from './stream-writer.ts';
import type { StreamLog } from '../streams/stream-log.ts';
import { storeStoppedTurn } from '../streams/stopped-turn.ts';

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

/** The `detail` a JSON caller would get, as the error part's text. */
function errorTextOf(err: unknown, request: FastifyRequest): string {
  const mapped = errorReply(err, request.traceId);
  // The stream's status is 200 already; the metric, span and log line record the failure's own.
  markFailed(request, mapped.status);
  const log = { status: mapped.status, ...(mapped.party !== undefined && { party: mapped.party }), ...describeError(err), streamed: true };
  if (mapped.defect) request.log.error({ ...log, stack: stackFrames(err) }, mapped.logMessage);
  else request.log.warn(log, mapped.logMessage);
  return typeof mapped.detail === 'string' ? mapped.detail : mapped.detail.message;
}

/**
 * Fastify runs the onResponse hooks (the SERVER span's end, request metrics, the log line) when
 * the response finishes or fails; one whose caller left does neither, so it is told it failed.
 */
function endWithoutCaller(reply: FastifyReply): void {
  // Without a listener (the hooks already ran) an 'error' event would be thrown instead.
  if (reply.raw.listenerCount('error') === 0) return;
  reply.raw.emit('error', Object.assign(new Error('the caller closed the connection before the stream ended'), { name: 'ClientGoneError' }));
}

export function streamedChat(settings: StreamedChatSettings) {
  const { metrics } = settings;

  function settle(request: FastifyRequest, reply: FastifyReply, stream: UiMessageStreamWriter, outcome: StreamOutcome): void {
    metrics?.countStream(outcome === 'failed' || !stream.clientGone ? outcome : 'client_gone');
    if (stream.firstTextAt !== undefined) metrics?.observeFirstText((stream.firstTextAt - request.startedAt) / 1000);
    request.span.setAttribute('chat_adapter.stream_outcome', stream.clientGone ? 'client_gone' : outcome);
    if (stream.clientGone) markClientGone(request);
    if (stream.clientGone) endWithoutCaller(reply);
  }

  return async function streamChat(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let stream: UiMessageStreamWriter | undefined;
    // Stop (resume-routes.ts -> the stream log -> here): aborts the engine call while it runs.
    const stop = new AbortController();
    let stoppable = true;
    const ctx = newChatContext({
      stopSignal: stop.signal,
      request: request.body as ChatContext['request'],
      traceId: request.traceId,
      idempotencyKey: request.chatTurn?.idempotencyKey,
      deadlineAt: request.startedAt + settings.requestTimeoutMs,
      textOut: { release: (text) => stream?.text(text, performance.now()) },
    });
    const spans = settings.stepObserver(request, ctx);
    const open = (): UiMessageStreamWriter => {
      // From here on the route writes the answer itself: Fastify's onSend hooks never run for it.
      void reply.hijack();
      markStreamed(request);
      const messageId = `${ctx.requestId ?? ''}:answer`;
      const body = request.body as ChatContext['request'];
      const log = settings.streams?.open(body.conversation_id, { messageId, scope: { orgId: body.orgId, propertyId: body.propertyId, sessionId: body.session_id } });
      log?.onStop(() => {
        if (stoppable) stop.abort();
      });
      const opened = new UiMessageStreamWriter(reply.raw, reply.getHeaders(), log);
      opened.start(messageId);
      for (const t of request.timings) opened.step(t.name, roundMs(t.ms));
      return opened;
    };
    const observer: StepObserver = {
      enter: (name, startedAt) => spans?.enter(name, startedAt),
      leave(timing: StepTiming, startedAt, endedAt, scope, result) {
        spans?.leave(timing, startedAt, endedAt, scope, result);
        if (timing.name === STOPPABLE_UNTIL) stoppable = false;
        if (!timing.ok) return;
        if (stream === undefined) {
          if (timing.name === VALIDATED) stream = open();
          return;
        }
        stream.step(timing.name, roundMs(timing.ms));
        if (timing.name === TEXT_FINAL && ctx.reply !== undefined && !stream.completeText(ctx.reply.response, performance.now())) {
          request.log.error({ step: TEXT_FINAL }, 'streamed text is not the start of the reply');
        }
      },
    };

    try {
      await settings.run(request, ctx, observer);
    } catch (err) {
      // Before the stream opened, the ordinary JSON error answers it (the hooks settle the turn).
      if (stream === undefined) throw err;
      if (stop.signal.aborted) await stopped(request, reply, stream, ctx);
      else await fail(request, reply, stream, err);
      return;
    }
    if (stream === undefined) throw new Error('the pipeline finished without validating the request');
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
      await fail(request, reply, stream, err);
      return;
    }
    stream.completeText(ctx.response?.response ?? '', performance.now());
    stream.chat(body);
    stream.finish();
    settle(request, reply, stream, 'completed');
  };

  /**
   * A stopped reply (docs/api.md#stopping-a-streamed-reply): kept as the visitor saw it, the key's
   * claim released (nothing kept to replay), the session's next message let go, then the `abort` part.
   */
  async function stopped(request: FastifyRequest, reply: FastifyReply, stream: UiMessageStreamWriter, ctx: ChatContext): Promise<void> {
    try {
      await storeStoppedTurn(ctx, settings.depsOf(request), stream.releasedText);
    } catch (err) {
      request.log.warn(describeError(err), 'stopped reply not stored');
    }
    try {
      // Nothing is kept to replay, and the session's next message goes at once.
      await takeTurn(request)?.abandon();
    } catch (releaseErr) {
      request.log.warn(describeError(releaseErr), 'idempotency claim not released; it expires by itself');
    }
    stream.abort();
    settle(request, reply, stream, 'stopped');
  }

  /** A failure after the stream opened: an `error` part, nothing kept for the key, the session let go. */
  async function fail(request: FastifyRequest, reply: FastifyReply, stream: UiMessageStreamWriter, err: unknown): Promise<void> {
    recordError(request.span, err);
    stream.error(errorTextOf(err, request));
    stream.finish(true);
    try {
      await takeTurn(request)?.abandon();
    } catch (releaseErr) {
      request.log.warn(describeError(releaseErr), 'idempotency claim not released; it expires by itself');
    }
    settle(request, reply, stream, 'failed');
  }
}
