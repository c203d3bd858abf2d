/**
 * Hooks that run with the request's SERVER span active, so that what they log through the deps
 * logger (src/telemetry/trace-logger.ts) carries the chat's `trace_id`: the shared-state warnings of
 * the idempotency and session-turn hooks ("session turn queue unavailable", "idempotency store
 * unavailable") are about one chat, and its id is how an on-call finds it. Fastify runs a POST's
 * preHandler hooks after reading the body, outside any context the request started with.
 */
import { context, trace } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';

export function spanScoped<A extends unknown[], R>(hook: (request: FastifyRequest, ...rest: A) => R): (request: FastifyRequest, ...rest: A) => R {
  return (request, ...rest) => context.with(trace.setSpan(context.active(), request.span), () => hook(request, ...rest));
}
