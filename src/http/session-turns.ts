/**
 * One turn at a time per session (docs/api.md#one-turn-at-a-time-per-session), as hooks of `POST /chat_adapter` that run after
 * the idempotency check: a message waits until the earlier messages of its session (orgId,
 * propertyId, session_id) are answered. The wait spends the chat's own deadline (docs/api.md#deadline);
 * if the deadline passes first, the answer is 503 `{"detail": "session busy"}` with
 * `Retry-After: 1` and nothing is called or stored. The time waited is reported as the timing
 * `waitForTurn`, before the pipeline steps (latency.steps, Server-Timing, step metrics, and a span
 * of its own under the request's span).
 *
 * With REDIS_URL the start of the turn also counts the chat's rate limits (named by rate-limits.ts)
 * and reads its session, in one Redis script: a chat over a limit gets its 429 here and never enters
 * the queue; the session read with the turn serves the pipeline's loadSession (routes.ts).
 */
import { performance } from 'node:perf_hooks';
import type { DoneFuncWithErrOrRes, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import { latencyFrom, serverTiming } from '../pipeline/latency.ts';
import type { Tracer } from '@opentelemetry/api';
import { sessionKeyOf, sessionNameOf } from '../pipeline/session-key.ts';
import { continueUnlessAnswered } from './hook-outcome.ts';
import type { IdempotencyHooks } from './idempotency.ts';
import { answerRateLimits } from './rate-limits.ts';
import { recordTimedSpan } from '../telemetry/step-span.ts';
import type { RequestMetrics } from '../telemetry/request-metrics.ts';
import type { SessionTurn, SessionTurns } from '../turns/create-session-turns.ts';

export const WAIT_FOR_TURN = 'waitForTurn';
export const SESSION_BUSY_DETAIL = 'session busy';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session turn this chat holds until its reply is sent (decorated by routes.ts). */
    sessionTurn: SessionTurn | undefined;
  }
}

/** Callback-style hooks: a chat that finds its session free goes on without a trip through an async hook. */
export interface SessionTurnHooks {
  preHandler(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: DoneFuncWithErrOrRes): void;
  onResponse(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
}

/** The session a message belongs to (the placeholder session id scoped by conversation). */
const sessionOf = (body: ChatRequest) => sessionNameOf(body);

/** Lets the session's next message go (also for a streamed answer, once its turn is complete). */
export const releaseTurn = (request: FastifyRequest): void => {
  request.sessionTurn?.release();
  request.sessionTurn = undefined;
};

/** The part of the idempotency hooks the start of a turn uses (idempotency.ts). */
export type StartClaims = Pick<IdempotencyHooks, 'startClaim' | 'settleStart'>;

export function sessionTurnHooks(turns: SessionTurns, metrics: RequestMetrics, requestTimeoutMs: number, tracer: Tracer, claims: StartClaims): SessionTurnHooks {
  /** Waits for the turn; past the deadline, answers 503 and says so (false). */
  async function takeTurn(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const started = performance.now();
    const body = request.body as ChatRequest;
    const limits = request.rateLimitWindows;
    const deadlineAt = request.startedAt + requestTimeoutMs;
    const start = { session: sessionKeyOf(body), limits };
    const claim = claims.startClaim(request, reply);
    let outcome = await turns.begin(sessionOf(body), deadlineAt, claim === undefined ? start : { ...start, claim });
    // The key is held by another request: answered from its record (a replay, 409, 422), neither
    // counted nor queued; a record out of shape is claimed in process and the chat goes on.
    if (outcome.kind === 'taken') {
      if (!(await claims.settleStart(request, reply, outcome.record))) return false;
      outcome = await turns.begin(sessionOf(body), deadlineAt, start);
    }
    switch (outcome.kind) {
      case 'taken':
      case 'answered': // the in-process claim (Redis could not be asked) answered it
        return false;
      // Over a limit: the 429 is sent (false) and the message never entered the queue.
      case 'refused':
        return answerRateLimits(reply, outcome.counts);
      case 'turn':
        break;
    }
    if (outcome.claimed) await claims.settleStart(request, reply, undefined);
    if (limits !== undefined) answerRateLimits(reply, outcome.counts);
    const turn = outcome.turn;
    // Held by the request at once: whatever fails next, onSend or onResponse gives it back.
    request.sessionTurn = turn;
    const ended = performance.now();
    const ms = ended - started;
    const timing = { name: WAIT_FOR_TURN, ms, ok: turn !== undefined };
    request.timings.push(timing);
    recordTimedSpan(tracer, request.span, timing, started, ended);
    metrics.observeTurnWait(ms / 1000, turn === undefined ? 'deadline' : 'turn');
    if (turn !== undefined) return true;
    const latency = latencyFrom(request.timings, performance.now() - request.startedAt, false);
    void reply.code(503).header('retry-after', '1').header('server-timing', serverTiming(latency)).send({ detail: SESSION_BUSY_DETAIL });
    return false;
  }

  return {
    preHandler(request, reply, done) {
      continueUnlessAnswered(takeTurn(request, reply), done);
    },
    // The pipeline is over once a reply is sent (success or error): the next message may go.
    onSend(request, _reply, payload, done) {
      releaseTurn(request);
      done(null, payload);
    },
    onResponse(request, _reply, done) {
      releaseTurn(request);
      done();
    },
  };
}
