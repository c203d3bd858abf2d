/**
 * Overload shedding (docs/api.md#overload-and-input-depth) with @fastify/under-pressure: when the event loop is delayed
 * by more than 1 s, new chats get 503 `{"detail": "Service overloaded"}` with `Retry-After`, at
 * once, instead of queueing until every caller times out. Every other route (`/heartbeat`,
 * `/metrics`, `/ready`, docs) keeps answering, so probes and scrapes see the service alive.
 *
 * The delay is under-pressure's measure: the mean delay of the event loop over its last sampling
 * second (sampled every 10 ms), i.e. a loop that stays saturated, not one single slow turn (unless
 * that turn blocks the whole sampled second).
 *
 * Start-up work is not overload: the sampler starts with the plugin, so its first windows hold the
 * loading, compiling and the start-up collection (src/runtime/release-start-up-memory.ts) that run
 * before the port opens, and on a busy machine they alone exceed the threshold. Chats are shed
 * only once a whole sampling window has passed after the instance started listening (after it was
 * ready, for an app that never listens): `START_UP_GRACE_MS` later.
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { sendError } from './error-replies.ts';
import type { RequestHook } from './hook-outcome.ts';

/** Seconds a refused caller is asked to wait; the state is measured again every second. */
export const OVERLOAD_RETRY_AFTER_S = 5;

/** Two sampling windows: the window in progress when the port opened, and one wholly after it. */
export const START_UP_GRACE_MS = 2_000;

export interface OverloadOptions {
  /** OVERLOAD_MAX_EVENT_LOOP_DELAY_MS (docs/api.md#overload-and-input-depth: 1000); unset or 0 = off (tests on a loaded machine, where any loop may lag). */
  readonly overloadMaxEventLoopDelayMs?: number | undefined;
  /** Each chat refused (chat_adapter_shed_total); the refusal's warn line is src/http/refusal-log.ts's. */
  readonly onShed?: ((reason: 'event_loop_delay') => void) | undefined;
}

/** Arms shedding `START_UP_GRACE_MS` after `scope` is ready, and again after it listens. */
function armedAfterStartUp(scope: FastifyInstance): () => boolean {
  let armed = false;
  let arm: NodeJS.Timeout | undefined;
  const armLater = () => {
    clearTimeout(arm);
    arm = setTimeout(() => {
      armed = true;
    }, START_UP_GRACE_MS);
    arm.unref();
  };
  // Counted from readiness, and again from listening: the start-up collection runs between the two.
  scope.addHook('onReady', (done) => {
    armLater();
    done();
  });
  scope.addHook('onListen', (done) => {
    if (!armed) armLater();
    done();
  });
  scope.addHook('onClose', (_instance, done) => {
    clearTimeout(arm);
    done();
  });
  return () => armed;
}

/**
 * The chat route's overload hook (chat-plugin.ts), with its sampler registered in `scope` (the chat
 * plugin's, so one per route prefix); undefined when shedding is off.
 */
export function overloadShedding(scope: FastifyInstance, options: OverloadOptions): RequestHook | undefined {
  const maxEventLoopDelay = options.overloadMaxEventLoopDelayMs ?? 0;
  if (maxEventLoopDelay === 0) return undefined;
  const armed = armedAfterStartUp(scope);
  // under-pressure only samples here (no threshold given, so it adds no hook of its own): the
  // refusal is this hook's, sent like every other error answer.
  void scope.register(underPressure);
  return (_request, reply, done) => {
    if (!armed() || scope.memoryUsage().eventLoopDelay <= maxEventLoopDelay) return done();
    options.onShed?.('event_loop_delay');
    sendError(reply, 503, 'Service overloaded', { 'retry-after': OVERLOAD_RETRY_AFTER_S });
  };
}
