import { performance } from 'node:perf_hooks';
import type { FastifyRequest } from 'fastify';
import type { Latency } from '../../schemas/chat-response.schema.ts';
import { latencyFrom } from '../pipeline/latency.ts';

/**
 * Takes the request's total now, once, for the response: `chat_adapter_latency`, the
 * `Server-Timing` total and the request log line's `ms` are then one figure over one span (from
 * onRequest to the moment the response is decided).
 */
export function takeLatency(request: FastifyRequest, engineSkipped: boolean): Latency {
  request.totalMs = performance.now() - request.startedAt;
  return latencyFrom(request.timings, request.totalMs, engineSkipped);
}
