/**
 * What a request's metric, SERVER span and log line record as its status: the HTTP status for a
 * JSON answer; for a streamed chat, whose HTTP status is 200 from the stream's first byte, the
 * outcome of the stream (docs/observability.md#outcomes):
 *
 * | stream ended by             | recorded status                                        |
 * |-----------------------------|--------------------------------------------------------|
 * | `finish` after `data-chat`  | 200                                                    |
 * | an `error` part             | the status a JSON caller would have got (503, 500, ...) |
 * | the caller leaving first    | 499 (nginx's "client closed request"): not a 5xx       |
 *
 * Streamed and JSON chats are told apart by `mode` (`stream` / `json`), a label of the request metric.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CACHE_HIT_STEP } from '../../schemas/chat-steps.ts';

export type AnswerMode = 'json' | 'stream';

/** A streamed chat whose caller left before its end (the turn still completed on its own). */
export const CLIENT_CLOSED_REQUEST = 499;

declare module 'fastify' {
  interface FastifyRequest {
    /** `stream` once the chat answers as an event stream. */
    answerMode: AnswerMode;
    /** Set when the answer's outcome is not its HTTP status: a streamed chat that failed or lost its caller. */
    outcomeStatus: number | undefined;
    /** The reply was reused from the session cache: the engine step asked no engine. */
    cacheHit: boolean;
  }
}

/** The engine step of a cache hit, named as its latency.steps figure, never as an engine call. */
export function stepNameOf(request: FastifyRequest, step: string): string {
  return request.cacheHit && step === 'askEngine' ? CACHE_HIT_STEP : step;
}

export function decorateRequestOutcome(app: FastifyInstance): void {
  app.decorateRequest('answerMode', 'json');
  app.decorateRequest('outcomeStatus', undefined);
  app.decorateRequest('cacheHit', false);
}

/** The chat answers as an event stream from now on. */
export function markStreamed(request: FastifyRequest): void {
  request.answerMode = 'stream';
}

/** The streamed chat ended with an `error` part: `status` is what a JSON caller would have got. */
export function markFailed(request: FastifyRequest, status: number): void {
  request.outcomeStatus = status;
}

/** The streamed chat's caller left before its end; a failure already recorded stays the outcome. */
export function markClientGone(request: FastifyRequest): void {
  request.outcomeStatus ??= CLIENT_CLOSED_REQUEST;
}

/** The status the metric, the span and the log line record. */
export function outcomeStatusOf(request: FastifyRequest, reply: FastifyReply): number {
  return request.outcomeStatus ?? reply.statusCode;
}
