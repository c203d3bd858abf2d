/**
 * How a streamed chat ends once its stream is open (docs/api.md#streamed-replies): completed,
 * stopped or failed. Each ends the chat's turn itself (Fastify's onSend hooks never see a hijacked
 * reply), then settles the stream's metrics and span, and tells Fastify when the caller left.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatContext } from '../pipeline/context.ts';
import type { Deps } from '../pipeline/ports.ts';
import { storeStoppedTurn } from '../streams/stopped-turn.ts';
import type { Metrics, StreamOutcome } from '../telemetry/metrics.ts';
import { describeError, stackFrames } from '../telemetry/safe-error.ts';
import { recordError } from '../telemetry/fast/span.ts';
import { takeTurn } from './chat-admission.ts';
import { errorReply } from './error-replies.ts';
import { markClientGone, markFailed } from './request-outcome.ts';
import type { UiMessageStreamWriter } from './stream-writer.ts';

/** A streamed chat whose stream is open. */
export interface OpenStream {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly stream: UiMessageStreamWriter;
  readonly metrics: Metrics | undefined;
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

/** The stream's outcome on its metrics and span; a caller that left is recorded as such. */
export function settle({ request, reply, stream, metrics }: OpenStream, outcome: StreamOutcome): void {
  metrics?.countStream(outcome === 'failed' || !stream.clientGone ? outcome : 'client_gone');
  if (stream.firstTextAt !== undefined) metrics?.observeFirstText((stream.firstTextAt - request.startedAt) / 1000);
  request.span.setAttribute('chat_adapter.stream_outcome', stream.clientGone ? 'client_gone' : outcome);
  if (stream.clientGone) markClientGone(request);
  if (stream.clientGone) endWithoutCaller(reply);
}

/** Gives the key's claim back (nothing kept to replay) and lets the session's next message go. */
async function abandonTurn(request: FastifyRequest): Promise<void> {
  try {
    await takeTurn(request)?.abandon();
  } catch (releaseErr) {
    request.log.warn(describeError(releaseErr), 'idempotency claim not released; it expires by itself');
  }
}

/**
 * A stopped reply (docs/api.md#stopping-a-streamed-reply): kept as the visitor saw it, the key's
 * claim released (nothing kept to replay), the session's next message let go, then the `abort` part.
 */
export async function endStopped(open: OpenStream, ctx: ChatContext, deps: Deps): Promise<void> {
  try {
    await storeStoppedTurn(ctx, deps, open.stream.releasedText);
  } catch (err) {
    open.request.log.warn(describeError(err), 'stopped reply not stored');
  }
  await abandonTurn(open.request);
  open.stream.abort();
  settle(open, 'stopped');
}

/** A failure after the stream opened: an `error` part, nothing kept for the key, the session let go. */
export async function endFailed(open: OpenStream, err: unknown): Promise<void> {
  recordError(open.request.span, err);
  open.stream.error(errorTextOf(err, open.request));
  open.stream.finish(true);
  await abandonTurn(open.request);
  settle(open, 'failed');
}
