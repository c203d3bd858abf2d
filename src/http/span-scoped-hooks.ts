/**
 * Work run with the request's SERVER span active. The pipeline's step and client spans then become
 * its children (`inRequestSpan`). Hooks (`spanScoped`) log through the deps logger
 * (src/telemetry/trace-logger.ts) with the chat's `trace_id`: the shared-state warnings of the
 * idempotency and session-turn hooks ("session turn queue unavailable", "idempotency store
 * unavailable") are about one chat, and its id is how an on-call finds it. Fastify runs a POST's
 * preHandler hooks after reading the body, outside any context the request started with.
 */
import { context, trace } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';

export function inRequestSpan<T>(request: FastifyRequest, run: () => T): T {
  return context.with(trace.setSpan(context.active(), request.span), run);
}

export function spanScoped<A extends unknown[], R>(hook: (request: FastifyRequest, ...rest: A) => R): (request: FastifyRequest, ...rest: A) => R {
  return (request, ...rest) => inRequestSpan(request, () => hook(request, ...rest));
}
