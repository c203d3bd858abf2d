/**
 * One turn at a time per session (CONTRACTS 6.6), as hooks of `POST /chat_adapter` that run after
 * the idempotency check: a message waits until the earlier messages of its session (orgId,
 * propertyId, session_id) are answered. The wait spends the chat's own deadline (CONTRACTS 6.1);
 * if the deadline passes first, the answer is 503 `{"detail": "session busy"}` with
 * `Retry-After: 1` and nothing is called or stored. The time waited is reported as the timing
 * `waitForTurn`, before the pipeline steps (latency.steps, Server-Timing, step metrics).
 */
import { performance } from 'node:perf_hooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import { latencyFrom, serverTiming } from '../pipeline/latency.ts';
import type { RequestMetrics } from '../telemetry/request-metrics.ts';
import type { SessionTurn, SessionTurns } from '../turns/create-session-turns.ts';

export const WAIT_FOR_TURN = 'waitForTurn';
export const SESSION_BUSY_DETAIL = 'session busy';

export interface SessionTurnHooks {
  preHandler(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
  onSend(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown>;
  onResponse(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** The session a message belongs to; the members are validated (digits, Base64, hex, UUID: no ':'). */
const sessionOf = (body: ChatRequest) => `${body.orgId}:${body.propertyId}:${body.session_id}`;

export function sessionTurnHooks(turns: SessionTurns, metrics: RequestMetrics, requestTimeoutMs: number): SessionTurnHooks {
  const held = new WeakMap<FastifyRequest, SessionTurn>();
  const release = (request: FastifyRequest) => {
    held.get(request)?.release();
    held.delete(request);
  };

  return {
    async preHandler(request, reply) {
      const started = performance.now();
      const turn = await turns.acquire(sessionOf(request.body as ChatRequest), request.startedAt + requestTimeoutMs);
      const ms = performance.now() - started;
      request.timings.push({ name: WAIT_FOR_TURN, ms, ok: turn !== undefined });
      metrics.observeTurnWait(ms / 1000, turn === undefined ? 'deadline' : 'turn');
      if (turn !== undefined) {
        held.set(request, turn);
        return;
      }
      const latency = latencyFrom(request.timings, performance.now() - request.startedAt, false);
      return reply.code(503).header('retry-after', '1').header('server-timing', serverTiming(latency)).send({ detail: SESSION_BUSY_DETAIL });
    },
    // The pipeline is over once a reply is sent (success or error): the next message may go.
    async onSend(request, _reply, payload) {
      release(request);
      return payload;
    },
    async onResponse(request) {
      release(request);
    },
  };
}
