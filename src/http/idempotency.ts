/**
 * Idempotent chats (docs/api.md#idempotency), as hooks of `POST /chat_adapter`, after body validation and
 * before the message waits its turn. A chat without an `Idempotency-Key` pays nothing here (one
 * header lookup). With one: a bad header is a 400 naming it; then the key, scoped to the
 * organisation, is claimed in the store with the request's fingerprint:
 *   - the first time: the chat runs; its 200 answer is kept (status and the exact bytes sent),
 *     any other answer releases the claim so that a retry runs again;
 *   - same key, same request, answered: the kept answer again with `Idempotent-Replayed: true`
 *     (nothing is called, stored or handed off);
 *   - same key, same request, still running: 409 with `Retry-After: 1`;
 *   - same key, different request: 422.
 * With REDIS_URL the key is checked here but claimed by the start of the chat's turn, in the same
 * Redis script that counts its rate limits and enters it (session-turns.ts `startClaim`,
 * `settleStart`): a replay, 409 or 422 then costs one round trip and is neither counted nor queued.
 */
import type { DoneFuncWithErrOrRes, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import { RequestValidationError } from '../errors.ts';
import { continueUnlessAnswered } from './hook-outcome.ts';
import { toError, type Claim, type HeldClaim, type IdempotencyStore, type PreparedClaim } from '../idempotency/idempotency-store.ts';
import { requestFingerprint } from '../idempotency/request-fingerprint.ts';
import { requestIdFor } from '../pipeline/request-id.ts';
import type { RequestMetrics } from '../telemetry/request-metrics.ts';
import type { StartClaim } from '../turns/create-session-turns.ts';
import { IDEMPOTENCY_HEADER, idempotencyHeaderLines, parseIdempotencyKey } from './idempotency-key-header.ts';

export const IN_FLIGHT_DETAIL = 'A request with this Idempotency-Key is still being processed; retry later';
export const MISMATCH_DETAIL = 'This Idempotency-Key was already used with a different request';

const OUTCOMES = { claimed: 'new', replay: 'replayed', in_flight: 'in_flight', mismatch: 'mismatch' } as const;

interface Held {
  readonly key: string;
  readonly claim: HeldClaim;
  settled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key claim this chat holds (decorated by routes.ts); undefined without a key. */
    idempotencyClaim: Held | undefined;
    /** With REDIS_URL, the checked key whose claim the start of the turn makes (decorated by routes.ts). */
    idempotencyKey: string | undefined;
    /** With REDIS_URL, that claim as prepared for the start script, kept until the chat answers (decorated by routes.ts). */
    idempotencyPrepared: PreparedClaim | undefined;
  }
}

/**
 * Callback-style hooks: a chat without an Idempotency-Key goes through all three without a promise
 * (an async hook is one, and a trip through the microtask queue, per hook and request).
 */
export interface IdempotencyHooks {
  preHandler(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: DoneFuncWithErrOrRes): void;
  onResponse(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  /** The checked key (quotes removed) of a request that holds its claim; undefined without a key. */
  keyOf(request: FastifyRequest): string | undefined;
  /**
   * For an answer the route writes itself (a stream, docs/api.md#streamed-replies), which the onSend hook never
   * sees: keeps `body` as the 200 answer to the key, or, with undefined, releases the claim.
   */
  settle(request: FastifyRequest, body: string | undefined): Promise<void>;
  /**
   * With REDIS_URL: the claim of the chat's checked key, for the start of its turn to make in the
   * same script (session-turns.ts); undefined without a key. `claimLocally` answers a replay,
   * 409 or 422 itself (false) when the script could not run.
   */
  startClaim(request: FastifyRequest, reply: FastifyReply): StartClaim | undefined;
  /**
   * What the start script found: the key is now the chat's (`record` undefined: true, it goes on),
   * or the record that holds it (the chat is answered from it: false).
   */
  settleStart(request: FastifyRequest, reply: FastifyReply, record: string | undefined): Promise<boolean>;
}

/** Answers a replay itself when the caller asked for a stream (true); false leaves the JSON replay. */
export type StreamReplay = (request: FastifyRequest, reply: FastifyReply, keptBody: string, key: string) => boolean;

function checkedKey(request: FastifyRequest, value: string | string[]): string {
  if (Array.isArray(value) || idempotencyHeaderLines(request.raw) > 1) {
    throw new RequestValidationError('Idempotency-Key', 'must be sent once, with one key');
  }
  const parsed = parseIdempotencyKey(value);
  if (!parsed.ok) throw new RequestValidationError('Idempotency-Key', parsed.problem);
  return parsed.key;
}

export function idempotencyHooks(store: IdempotencyStore, metrics: RequestMetrics, streamReplay?: StreamReplay): IdempotencyHooks {
  /** Holds a claimed key (true), or answers the request from what holds the key (replay, 409, 422: false). */
  function answerClaim(request: FastifyRequest, reply: FastifyReply, key: string, claim: Claim): boolean {
    const outcome = OUTCOMES[claim.outcome];
    metrics.countIdempotent(outcome);
    request.span.setAttribute('chat_adapter.idempotency', outcome);
    switch (claim.outcome) {
      case 'claimed':
        request.idempotencyClaim = { key, claim, settled: false };
        return true;
      case 'replay':
        if (streamReplay?.(request, reply, claim.answer.body, key) === true) return false;
        // A string body with a JSON content type goes out as it is: the same bytes as the first time.
        void reply
          .code(claim.answer.status)
          .header('content-type', 'application/json; charset=utf-8')
          .header('idempotent-replayed', 'true')
          .send(claim.answer.body);
        return false;
      case 'in_flight':
        void reply.code(409).header('retry-after', '1').send({ detail: IN_FLIGHT_DETAIL });
        return false;
      case 'mismatch':
        void reply.code(422).send({ detail: MISMATCH_DETAIL });
        return false;
    }
  }

  const scopeOf = (request: FastifyRequest, key: string) => {
    const body = request.body as ChatRequest;
    return { scope: requestIdFor(body.orgId, key), fingerprint: requestFingerprint(body) };
  };

  /** Checks and claims the key; answers the request itself (replay, 409, 422: false) or lets it go on (true). */
  async function claimKey(request: FastifyRequest, reply: FastifyReply, value: string | string[]): Promise<boolean> {
    const key = checkedKey(request, value);
    const { scope, fingerprint } = scopeOf(request, key);
    return answerClaim(request, reply, key, await store.claim(scope, fingerprint));
  }

  return {
    keyOf: (request) => request.idempotencyClaim?.key,

    async settle(request, body) {
      const mine = request.idempotencyClaim;
      if (mine === undefined || mine.settled) return;
      mine.settled = true;
      await (body === undefined ? mine.claim.release() : mine.claim.complete({ status: 200, body }));
    },

    preHandler(request, reply, done) {
      const value = request.headers[IDEMPOTENCY_HEADER];
      if (value === undefined) {
        done();
        return;
      }
      if (store.prepare === undefined) {
        continueUnlessAnswered(claimKey(request, reply, value), done);
        return;
      }
      // Checked now (a bad key is a 400 before the message waits its turn); claimed by the turn's start.
      request.idempotencyKey = checkedKey(request, value);
      done();
    },

    startClaim(request, reply) {
      const key = request.idempotencyKey;
      if (key === undefined || store.prepare === undefined) return undefined;
      const { scope, fingerprint } = scopeOf(request, key);
      const claim = store.prepare(scope, fingerprint);
      request.idempotencyPrepared = claim;
      const local = store.claimLocally;
      return {
        key: claim.key,
        value: claim.value,
        ms: claim.ms,
        claimLocally: async (reason, sent) =>
          answerClaim(request, reply, key, await (local === undefined ? store.claim(scope, fingerprint) : local(scope, fingerprint, reason, sent ? claim : undefined))),
      };
    },

    async settleStart(request, reply, record) {
      const key = request.idempotencyKey;
      const claim = request.idempotencyPrepared;
      if (key === undefined || claim === undefined) throw new Error('no Idempotency-Key claim was started for this request');
      if (record === undefined) return answerClaim(request, reply, key, claim.held());
      let found: Claim;
      try {
        found = claim.judge(record);
      } catch (err) {
        // A record out of shape: as when Redis fails, the key is claimed in process for this request.
        const { scope, fingerprint } = scopeOf(request, key);
        found = await (store.claimLocally?.(scope, fingerprint, toError(err)) ?? store.claim(scope, fingerprint));
      }
      return answerClaim(request, reply, key, found);
    },

    // The answer is kept before it goes out, so that a retry after this 200 is always a replay.
    onSend(request, reply, payload, done) {
      const mine = request.idempotencyClaim;
      if (mine === undefined || mine.settled) {
        done(null, payload);
        return;
      }
      mine.settled = true;
      const kept = reply.statusCode === 200 && typeof payload === 'string' ? mine.claim.complete({ status: 200, body: payload }) : mine.claim.release();
      kept.then(() => done(null, payload), (err: Error) => done(err));
    },

    // A request that ended without a reply being sent (client gone) never keeps its key blocked.
    onResponse(request, _reply, done) {
      const mine = request.idempotencyClaim;
      if (mine === undefined || mine.settled) {
        done();
        return;
      }
      mine.settled = true;
      mine.claim.release().then(() => done(), done);
    },
  };
}
