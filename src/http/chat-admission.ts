/**
 * Where a chat is admitted and where it ends, for the JSON and the streamed answer alike: the HTTP
 * side of the chat turn (src/turns/chat-turns.ts). After body validation and caller auth:
 *   preHandler  checks the Idempotency-Key header (400 naming it), then admits the chat: a kept
 *               answer is replayed (`Idempotent-Replayed: true`, as a stream when one is asked for),
 *               a key still running is 409 with `Retry-After: 1`, a key used for another request
 *               422, a rate limit 429 (rate-limits.ts `answerRateLimits`), a deadline passed while
 *               waiting for the session's turn 503 `session busy`; a caller that left while its chat
 *               waited is recorded as 499 (it never ran, nothing of it is counted); otherwise the
 *               request holds its turn (`request.chatTurn`) and the time waited is `waitForTurn`.
 *   onSend      a JSON 200 is kept for its key before it goes out (`finish`); any other answer
 *               gives the key back and ends the turn (`abandon`).
 *   onResponse  a request whose answer never went out (its caller left) ends its turn too.
 * A streamed answer ends its turn itself (stream-chat.ts), since onSend never sees it.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tracer } from '@opentelemetry/api';
import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import { WAIT_FOR_TURN_STEP } from '../../schemas/chat-steps.ts';
import { RequestValidationError } from '../errors.ts';
import { requestFingerprint } from '../idempotency/request-fingerprint.ts';
import { latencyFrom, serverTiming } from '../pipeline/latency.ts';
import { requestIdFor } from '../pipeline/request-id.ts';
import { sessionKeyOf, sessionNameOf } from '../pipeline/session-key.ts';
import { recordTimedSpan } from '../telemetry/step-span.ts';
import type { RequestMetrics } from '../telemetry/request-metrics.ts';
import type { Admission, ChatTurn, ChatTurns } from '../turns/chat-turns.ts';
import { sendError } from './error-replies.ts';
import { continueUnlessAnswered, type RequestHook, type SendHook } from './hook-outcome.ts';
import { IDEMPOTENCY_HEADER, idempotencyHeaderLines, parseIdempotencyKey } from './idempotency-key-header.ts';
import { answerRateLimits } from './rate-limits.ts';

/** The timing of the wait for the session's turn (declared with the steps: schemas/chat-steps.ts). */
export const WAIT_FOR_TURN = WAIT_FOR_TURN_STEP;
export const SESSION_BUSY_DETAIL = 'session busy';
/** The status recorded for a chat whose caller left before its turn (nginx's "client closed request"). */
export const CALLER_GONE_STATUS = 499;
export const IN_FLIGHT_DETAIL = 'A request with this Idempotency-Key is still being processed; retry later';
export const MISMATCH_DETAIL = 'This Idempotency-Key was already used with a different request';

declare module 'fastify' {
  interface FastifyRequest {
    /** The turn this chat holds until its answer is complete (decorated by chat-plugin.ts). */
    chatTurn: ChatTurn | undefined;
  }
}

/** Answers a replay itself when the caller asked for a stream (true); false leaves the JSON replay. */
export type StreamReplay = (request: FastifyRequest, reply: FastifyReply, keptBody: string, key: string) => boolean;

/** Callback-style hooks: a chat whose session is free goes on without a trip through an async hook. */
export interface ChatAdmissionHooks {
  readonly preHandler: RequestHook;
  readonly onSend: SendHook;
  readonly onResponse: RequestHook;
}

export interface ChatAdmissionSettings {
  readonly turns: ChatTurns;
  readonly metrics: RequestMetrics;
  readonly requestTimeoutMs: number;
  readonly tracer: Tracer;
  readonly streamReplay: StreamReplay;
}

/** The checked Idempotency-Key (quotes removed); a bad one is a 400 naming the header. */
function checkedKey(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_HEADER];
  if (value === undefined) return undefined;
  if (Array.isArray(value) || idempotencyHeaderLines(request.raw) > 1) throw new RequestValidationError('Idempotency-Key', 'must be sent once, with one key');
  const parsed = parseIdempotencyKey(value);
  if (!parsed.ok) throw new RequestValidationError('Idempotency-Key', parsed.problem);
  return parsed.key;
}

/** Takes the chat's turn away from the request (so it ends once) and ends it. */
export function takeTurn(request: FastifyRequest): ChatTurn | undefined {
  const turn = request.chatTurn;
  request.chatTurn = undefined;
  return turn;
}

export function chatAdmission(settings: ChatAdmissionSettings): ChatAdmissionHooks {
  const { metrics } = settings;

  function recordWait(request: FastifyRequest, started: number, ok: boolean): void {
    const ended = performance.now();
    const timing = { name: WAIT_FOR_TURN, ms: ended - started, ok };
    request.timings.push(timing);
    recordTimedSpan(settings.tracer, request.span, timing, started, ended);
    metrics.observeTurnWait(timing.ms / 1000, ok ? 'turn' : 'deadline');
  }

  /** Answers what admission decided, unless the chat holds its turn (true: it goes on). */
  function answer(request: FastifyRequest, reply: FastifyReply, admission: Admission, key: string | undefined, started: number): boolean {
    if (key !== undefined) {
      const outcome = admission.kind === 'replay' ? 'replayed' : admission.kind === 'in_flight' || admission.kind === 'mismatch' ? admission.kind : 'new';
      metrics.countIdempotent(outcome);
      request.span.setAttribute('chat_adapter.idempotency', outcome);
    }
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
        recordWait(request, started, false);
        const latency = latencyFrom(request.timings, performance.now() - request.startedAt, false);
        sendError(reply, 503, SESSION_BUSY_DETAIL, { 'retry-after': '1', 'server-timing': serverTiming(latency) });
        return false;
      }
      case 'gone':
        recordWait(request, started, false);
        sendError(reply, CALLER_GONE_STATUS, 'the caller closed the connection before the chat started');
        return false;
      case 'turn':
        // Held by the request at once: whatever fails next, onSend or onResponse ends it.
        request.chatTurn = admission.turn;
        answerRateLimits(reply, admission.counts);
        recordWait(request, started, true);
        return true;
    }
  }

  async function admit(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const started = performance.now();
    const key = checkedKey(request);
    const body = request.body as ChatRequest;
    // The connection closing before an answer: a chat still waiting for its turn then never runs.
    const gone = new AbortController();
    const leave = () => gone.abort();
    reply.raw.once('close', leave);
    const admission = await settings.turns.admit({
      callerGone: gone.signal,
      sessionName: sessionNameOf(body),
      sessionKey: sessionKeyOf(body),
      deadlineAt: request.startedAt + settings.requestTimeoutMs,
      idempotency: key === undefined ? undefined : { key, scope: requestIdFor(body.orgId, key), fingerprint: requestFingerprint(body) },
      limits: request.rateLimitWindows,
    }).finally(() => reply.raw.off('close', leave));
    return answer(request, reply, admission, key, started);
  }

  return {
    preHandler(request, reply, done) {
      continueUnlessAnswered(admit(request, reply), done);
    },
    // The answer is kept before it goes out, so that a retry after this 200 is always a replay.
    onSend(request, reply, payload, done) {
      const turn = takeTurn(request);
      if (turn === undefined) {
        done(null, payload);
        return;
      }
      const ended = reply.statusCode === 200 && typeof payload === 'string' ? turn.finish(payload) : turn.abandon();
      ended.then(() => done(null, payload), (err: Error) => done(err));
    },
    // A request that ended without an answer being sent (its caller left) never keeps its key or turn.
    onResponse(request, _reply, done) {
      const turn = takeTurn(request);
      if (turn === undefined) {
        done();
        return;
      }
      turn.abandon().then(() => done(), done);
    },
  };
}
