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
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { chatRouteMatcher } from './chat-route.ts';
import { sendError } from './error-replies.ts';

/** Seconds a refused caller is asked to wait; the state is measured again every second. */
export const OVERLOAD_RETRY_AFTER_S = 5;

/** Two sampling windows: the window in progress when the port opened, and one wholly after it. */
export const START_UP_GRACE_MS = 2_000;

export interface OverloadOptions {
  readonly routePrefix: string;
  /** OVERLOAD_MAX_EVENT_LOOP_DELAY_MS (docs/api.md#overload-and-input-depth: 1000); unset or 0 = off (tests on a loaded machine, where any loop may lag). */
  readonly maxEventLoopDelayMs?: number | undefined;
  /** Each chat refused (chat_adapter_shed_total); the refusal's warn line is src/http/refusal-log.ts's. */
  readonly onShed?: ((reason: 'event_loop_delay') => void) | undefined;
}

const overloadPlugin: FastifyPluginAsync<OverloadOptions> = async (app, options) => {
  const maxEventLoopDelay = options.maxEventLoopDelayMs ?? 0;
  if (maxEventLoopDelay === 0) return;
  const isChat = chatRouteMatcher(options.routePrefix);
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
  app.addHook('onReady', (done) => {
    armLater();
    done();
  });
  app.addHook('onListen', (done) => {
    if (!armed) armLater();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearTimeout(arm);
    done();
  });
  // under-pressure only samples here (no threshold given, so it adds no hook of its own): the
  // refusal is this hook's, sent like every other error answer.
  await app.register(underPressure);
  app.addHook('onRequest', (request, reply, done) => {
    if (!armed || app.memoryUsage().eventLoopDelay <= maxEventLoopDelay || !isChat(request)) return done();
    options.onShed?.('event_loop_delay');
    sendError(reply, 503, 'Service overloaded', { 'retry-after': OVERLOAD_RETRY_AFTER_S });
  });
};

export const overload = fp(overloadPlugin, { name: 'overload', fastify: '5.x' });
