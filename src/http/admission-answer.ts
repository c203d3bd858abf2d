/**
 * What a chat's admission decided (src/turns/chat-turns.ts), answered (chat-admission.ts): a kept
 * answer replayed (`Idempotent-Replayed: true`, as a stream when one is asked for), 409 with
 * `Retry-After: 1` for a key still running, 422 for a key used with another request, 429 for a rate
 * limit (rate-limits.ts `answerRateLimits`), 503 `session busy` for a deadline passed while waiting
 * for the session's turn, 499 recorded for a caller that left while its chat waited; or the turn,
 * then held by the request. The wait for the turn is timed as `waitForTurn`.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tracer } from '@opentelemetry/api';
import { WAIT_FOR_TURN_STEP } from '../../schemas/chat-steps.ts';
import { latencyFrom, serverTiming } from '../pipeline/latency.ts';
import type { RequestMetrics } from '../telemetry/request-metrics.ts';
import { recordTimedSpan } from '../telemetry/fast/step-span.ts';
import type { Admission } from '../turns/chat-turns.ts';
import { sendError } from './error-replies.ts';
import { answerRateLimits } from './rate-limits.ts';

export const SESSION_BUSY_DETAIL = 'session busy';
/** The status recorded for a chat whose caller left before its turn (nginx's "client closed request"). */
export const CALLER_GONE_STATUS = 499;
export const IN_FLIGHT_DETAIL = 'A request with this Idempotency-Key is still being processed; retry later';
export const MISMATCH_DETAIL = 'This Idempotency-Key was already used with a different request';

/** Answers a replay itself when the caller asked for a stream (true); false leaves the JSON replay. */
export type StreamReplay = (request: FastifyRequest, reply: FastifyReply, keptBody: string, key: string) => boolean;

export interface AdmissionAnswerSettings {
  readonly metrics: RequestMetrics;
  readonly tracer: Tracer;
  readonly streamReplay: StreamReplay;
}

/** The wait for the session's turn, as a timing, a span and the turn-wait metric. */
function recordWait(settings: AdmissionAnswerSettings, request: FastifyRequest, started: number, ok: boolean): void {
  const ended = performance.now();
  const timing = { name: WAIT_FOR_TURN_STEP, ms: ended - started, ok };
  request.timings.push(timing);
  recordTimedSpan(settings.tracer, request.span, timing, started, ended);
  settings.metrics.observeTurnWait(timing.ms / 1000, ok ? 'turn' : 'deadline');
}

/** A keyed chat's idempotency outcome, on the metric and the span. */
function recordIdempotency(settings: AdmissionAnswerSettings, request: FastifyRequest, admission: Admission): void {
  const outcome = admission.kind === 'replay' ? 'replayed' : admission.kind === 'in_flight' || admission.kind === 'mismatch' ? admission.kind : 'new';
  settings.metrics.countIdempotent(outcome);
  request.span.setAttribute('chat_adapter.idempotency', outcome);
}

/** Answers what admission decided, unless the chat holds its turn (true: it goes on). */
export function answerAdmission(
  settings: AdmissionAnswerSettings, request: FastifyRequest, reply: FastifyReply, admission: Admission, key: string | undefined, started: number,
): boolean {
  if (key !== undefined) recordIdempotency(settings, request, admission);
  switch (admission.kind) {
    case 'replay':
      if (settings.streamReplay(request, reply, admission.answer.body, key ?? '')) return false;
      // A string body with a JSON content type goes out as it is: the same bytes as the first time.
      void reply.code(admission.answer.status).header('content-type', 'application/json; charset=utf-8').header('idempotent-replayed', 'true').send(admission.answer.body);
      return false;
    case 'in_flight':
      sendError(reply, 409, IN_FLIGHT_DETAIL, { 'retry-after': '1' });
      return false;
    case 'mismatch':
      sendError(reply, 422, MISMATCH_DETAIL);
      return false;
    case 'refused':
      return answerRateLimits(reply, admission.counts);
    case 'busy': {
      answerRateLimits(reply, admission.counts);
      recordWait(settings, request, started, false);
      const latency = latencyFrom(request.timings, performance.now() - request.startedAt, false);
      sendError(reply, 503, SESSION_BUSY_DETAIL, { 'retry-after': '1', 'server-timing': serverTiming(latency) });
      return false;
    }
    case 'gone':
      recordWait(settings, request, started, false);
      sendError(reply, CALLER_GONE_STATUS, 'the caller closed the connection before the chat started');
      return false;
    case 'turn':
      // Held by the request at once: whatever fails next, onSend or onResponse ends it.
      request.chatTurn = admission.turn;
      answerRateLimits(reply, admission.counts);
      recordWait(settings, request, started, true);
      return true;
  }
}
