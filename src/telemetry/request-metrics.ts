/**
 * Metrics of idempotent requests and session turns (docs/api.md#idempotency, docs/api.md#one-turn-at-a-time-per-session), on the service's own
 * registry (src/telemetry/metrics.ts hands it over as `metrics.registry`).
 */
import { Counter, Histogram, type Registry } from 'prom-client';

/** `new`: first use of a key; `replayed`: kept answer sent again; `in_flight`: 409; `mismatch`: 422. */
export type IdempotencyOutcome = 'new' | 'replayed' | 'in_flight' | 'mismatch';
/** `turn`: the message got its turn; `deadline`: its deadline passed while waiting (503). */
export type TurnWaitOutcome = 'turn' | 'deadline';
export type SharedStateFeature = 'idempotency' | 'turns';
/** A Redis script call of a chat, timed from send to reply (or failure). */
export type RedisCallObserver = (script: string, seconds: number, ok: boolean) => void;

export interface RequestMetrics {
  countIdempotent(outcome: IdempotencyOutcome): void;
  observeTurnWait(seconds: number, outcome: TurnWaitOutcome): void;
  countLeaseExpired(): void;
  countSharedStateFallback(feature: SharedStateFeature): void;
  observeRedisCall: RedisCallObserver;
}

export const noRequestMetrics: RequestMetrics = {
  countIdempotent: () => {},
  observeTurnWait: () => {},
  countLeaseExpired: () => {},
  countSharedStateFallback: () => {},
  observeRedisCall: () => {},
};

// Seconds: most messages do not wait at all; a queued one waits for a whole turn (up to the deadline).
const WAIT_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25];

export function createRequestMetrics(registry: Registry): RequestMetrics {
  const registers = [registry];
  const idempotent = new Counter({
    name: 'chat_adapter_idempotent_requests_total',
    help: 'Chats sent with an Idempotency-Key, by outcome: new, replayed (kept answer sent again), in_flight (409), mismatch (422).',
    labelNames: ['outcome'] as const,
    registers,
  });
  const turnWait = new Histogram({
    name: 'chat_adapter_session_turn_wait_seconds',
    help: "Time a chat waited for its session's turn, by outcome: turn (then processed) or deadline (answered 503 session busy).",
    labelNames: ['outcome'] as const,
    buckets: WAIT_BUCKETS,
    registers,
  });
  const leasesExpired = new Counter({
    name: 'chat_adapter_session_leases_expired_total',
    help: "Turns that were still running when their Redis lease expired (the session's next message may have started).",
    registers,
  });
  const fallbacks = new Counter({
    name: 'chat_adapter_shared_state_fallbacks_total',
    help: 'Redis operations that failed, after which the chat went on with in-process state, by feature (idempotency, turns).',
    labelNames: ['feature'] as const,
    registers,
  });
  // A Redis call is sub-millisecond when healthy; a stall shows as the 200 ms command timeout.
  const redisCalls = new Histogram({
    name: 'chat_adapter_redis_command_duration_seconds',
    help: "Time of a chat's Redis calls (one script each: chatBegin, chatEnd, turnPoll, turnRenew, countWindow, idempotencyClaim, ...), from send to reply, by outcome (ok, error: refused, timed out, failed over).",
    labelNames: ['command', 'outcome'] as const,
    buckets: [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
    registers,
  });
  // Zero-valued series exist from the start, so rates and alerts work before the first event.
  for (const outcome of ['new', 'replayed', 'in_flight', 'mismatch'] as const) idempotent.inc({ outcome }, 0);
  for (const feature of ['idempotency', 'turns'] as const) fallbacks.inc({ feature }, 0);

  return {
    countIdempotent: (outcome) => idempotent.inc({ outcome }),
    observeTurnWait: (seconds, outcome) => turnWait.observe({ outcome }, seconds),
    countLeaseExpired: () => leasesExpired.inc(),
    countSharedStateFallback: (feature) => fallbacks.inc({ feature }),
    observeRedisCall: (command, seconds, ok) => redisCalls.observe({ command, outcome: ok ? 'ok' : 'error' }, seconds),
  };
}
