/**
 * The record of every request, routes, refusals, errors and 404s alike (fastify-plugin: hooks of the
 * whole app, and the first of each request): its SERVER span (started in `genReqId`, src/app.ts)
 * named by the matched route, the `traceresponse` header, the timings the pipeline fills, and at
 * the end one log line, the request metrics and the span's end, all three with the answer's outcome
 * (request-outcome.ts: a streamed chat that failed is its error status). Refusals are read as they
 * go out for their warn line (refusal-log.ts).
 */
import { performance } from 'node:perf_hooks';
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Span } from '@opentelemetry/api';
import { roundMs } from '../pipeline/latency.ts';
import type { StepTiming } from '../pipeline/runner.ts';
import type { Metrics } from '../telemetry/metrics.ts';
import { endServerSpan, nameServerSpan, serverSpanOf } from '../telemetry/fast/server-span.ts';
import { captureRefusal, decorateRefusals, refusalLogger } from './refusal-log.ts';
import { decorateRequestOutcome, outcomeStatusOf, stepNameOf } from './request-outcome.ts';
import { TRACE_RESPONSE_HEADER, traceResponse } from './trace-response.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span; its trace id is the response's `trace_id`. */
    span: Span;
    traceId: string;
    startedAt: number;
    /** The matched route template (`/chat_adapter`, prefix included), or `unmatched`; read once per request. */
    routeTemplate: string;
    /** Filled by the pipeline runner as steps finish (also when one fails). */
    timings: StepTiming[];
    /** The total taken for the response (src/http/request-latency.ts); the log line repeats it. */
    totalMs: number | undefined;
  }
}

export interface RequestTelemetryOptions {
  /** Fed per request (and per step); none in tests that do not read them. */
  readonly metrics?: Metrics | undefined;
  /** ROUTE_PREFIX: the probes under it are quiet too. */
  readonly routePrefix: string;
}

/** pino's level check; Fastify's logger type does not declare it, so any other logger writes always. */
function infoEnabled(log: unknown): boolean {
  return (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? true;
}

/** Ends the server span, feeds the metrics and writes the request's one log line. */
function requestRecorder(options: RequestTelemetryOptions): (request: FastifyRequest, reply: FastifyReply) => void {
  const { metrics } = options;
  // Probes and scrapes: counted, but no log line (one every few seconds per instance says nothing).
  const quietRoutes: ReadonlySet<string> = new Set(['/heartbeat', '/metrics', '/ready'].flatMap((path) => [path, `${options.routePrefix}${path}`]));
  const logRefusal = refusalLogger();
  return (request, reply) => {
    const endedAt = performance.now();
    const ms = endedAt - request.startedAt;
    const status = outcomeStatusOf(request, reply);
    // Exemplars name only traces that are recorded (and so can be found); read before the span ends.
    const exemplar = request.span.isRecording() ? request.traceId : undefined;
    endServerSpan(request.span, reply.statusCode, endedAt, status);
    const route = request.routeTemplate;
    if (metrics) {
      metrics.observeRequest(request.method, route, status, ms / 1000, request.caller?.name, request.answerMode, exemplar);
      for (const t of request.timings) metrics.observeStep(stepNameOf(request, t.name), t.ms / 1000, t.ok, exemplar);
    }
    logRefusal(request, status, route);
    // Built only when it will be written.
    if (!infoEnabled(request.log) || quietRoutes.has(route)) return;
    const steps: Record<string, number> = {};
    for (const t of request.timings) steps[stepNameOf(request, t.name)] = roundMs(t.ms);
    const mode = request.answerMode === 'stream' ? { mode: request.answerMode } : undefined;
    // The figure the response reported, when it reported one (chat_adapter_latency, Server-Timing).
    request.log.info({ method: request.method, route, status, ...mode, ms: roundMs(request.totalMs ?? ms), steps }, 'request completed');
  };
}

const requestTelemetryPlugin: FastifyPluginAsync<RequestTelemetryOptions> = async (app, options) => {
  app.decorateRequest('span', undefined as unknown as Span);
  app.decorateRequest('traceId', '');
  app.decorateRequest('startedAt', 0);
  app.decorateRequest('routeTemplate', '');
  app.decorateRequest('timings', undefined as unknown as StepTiming[]);
  app.decorateRequest('totalMs', undefined);
  decorateRequestOutcome(app);
  decorateRefusals(app);

  // The hooks of every request are callback-style (no async function, no promise): each async hook
  // is a promise and a trip through the microtask queue before the next hook runs.
  app.addHook('onRequest', (request, reply, done) => {
    request.startedAt = performance.now();
    request.timings = [];
    request.span = serverSpanOf(request.raw);
    request.traceId = request.id;
    // docs/api.md#trace-id-header: set first, so every answer, refusals and streams included, carries it.
    void reply.header(TRACE_RESPONSE_HEADER, traceResponse(request.span, request.id));
    // Fastify builds a new routeOptions object on every read.
    const route = request.routeOptions.url;
    request.routeTemplate = route ?? 'unmatched';
    nameServerSpan(request.span, request.method, route);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    captureRefusal(request, reply, payload);
    done(null, payload);
  });
  const recordRequest = requestRecorder(options);
  app.addHook('onResponse', (request, reply, done) => {
    recordRequest(request, reply);
    done();
  });
};

export const requestTelemetry = fp(requestTelemetryPlugin, { name: 'request-telemetry', fastify: '5.x' });
