/**
 * Where a chat is admitted and where it ends, for the JSON and the streamed answer alike: the HTTP
 * side of the chat turn (src/turns/chat-turns.ts). After body validation and caller auth:
 *   preHandler  checks the Idempotency-Key header (400 naming it), then admits the chat and
 *               answers what admission decided (admission-answer.ts: a replay, 409, 422, 429, 503
 *               `session busy`, 499 for a caller that left while its chat waited); otherwise the
 *               request holds its turn (`request.chatTurn`) and the time waited is `waitForTurn`.
 *   onSend      a JSON 200 is kept for its key before it goes out (`finish`); any other answer
 *               gives the key back and ends the turn (`abandon`).
 *   onResponse  a request whose answer never went out (its caller left) ends its turn too.
 * A streamed answer ends its turn itself (stream-chat.ts), since onSend never sees it.
 */
import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import { WAIT_FOR_TURN_STEP } from '../../schemas/chat-steps.ts';
import { RequestValidationError } from '../errors.ts';
import { requestFingerprint } from '../idempotency/request-fingerprint.ts';
import { requestIdFor } from '../pipeline/request-id.ts';
import { sessionKeyOf, sessionNameOf } from '../pipeline/session-key.ts';
import type { ChatTurn, ChatTurns } from '../turns/chat-turns.ts';
import { answerAdmission, type AdmissionAnswerSettings } from './admission-answer.ts';
import { continueUnlessAnswered, type RequestHook, type SendHook } from './hook-outcome.ts';
import { IDEMPOTENCY_HEADER, idempotencyHeaderLines, parseIdempotencyKey } from './idempotency-key-header.ts';

/** The timing of the wait for the session's turn (declared with the steps: schemas/chat-steps.ts). */
export const WAIT_FOR_TURN = WAIT_FOR_TURN_STEP;

declare module 'fastify' {
  interface FastifyRequest {
    /** The turn this chat holds until its answer is complete (decorated by chat-plugin.ts). */
    chatTurn: ChatTurn | undefined;
  }
}

/** Callback-style hooks: a chat whose session is free goes on without a trip through an async hook. */
export interface ChatAdmissionHooks {
  readonly preHandler: RequestHook;
  readonly onSend: SendHook;
  readonly onResponse: RequestHook;
}

export interface ChatAdmissionSettings extends AdmissionAnswerSettings {
  readonly turns: ChatTurns;
  readonly requestTimeoutMs: number;
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
    return answerAdmission(settings, request, reply, admission, key, started);
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
