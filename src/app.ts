import { performance } from 'node:perf_hooks';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Span, type Tracer } from '@opentelemetry/api';
import { BODY_LIMIT_BYTES } from '../schemas/chat-request.schema.ts';
import type { Deps } from './pipeline/deps.ts';
import type { StepTiming } from './pipeline/runner.ts';
import { errorReply } from './http/error-replies.ts';
import { acceptJsonOnly } from './http/json-body.ts';
import { registerRoutes } from './http/routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's server span; its trace id is the response's `trace_id`. */
    span: Span;
    traceId: string;
    startedAt: number;
    /** Filled by the pipeline runner as steps finish (also when one fails). */
    timings: StepTiming[];
  }
}

export interface AppOptions {
  readonly deps: Deps;
  readonly tracer: Tracer;
  /** ROUTE_PREFIX: both routes are also served under it. */
  readonly routePrefix: string;
  readonly loggerInstance: NonNullable<FastifyServerOptions['loggerInstance']>;
}

/** Builds the service (never listens: src/server.ts does). */
export function buildApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.loggerInstance,
    // Fastify's own per-request lines are off: one line per request is written in onResponse instead.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
    ajv: {
      // No type coercion ("true" is not a boolean); unknown members are stripped, never forwarded.
      customOptions: { coerceTypes: false, removeAdditional: true, useDefaults: true, allErrors: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  acceptJsonOnly(app);
  app.decorateRequest('span', undefined as unknown as Span);
  app.decorateRequest('traceId', '');
  app.decorateRequest('startedAt', 0);
  app.decorateRequest('timings', undefined as unknown as StepTiming[]);

  app.addHook('onRequest', async (request) => {
    request.startedAt = performance.now();
    request.timings = [];
    // An incoming W3C traceparent is continued: same trace id.
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = request.routeOptions.url ?? 'unknown';
    request.span = options.tracer.startSpan(
      `${request.method} ${route}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'http.route': route } },
      parent,
    );
    request.traceId = request.span.spanContext().traceId;
  });

  app.addHook('onResponse', async (request, reply) => {
    const ms = performance.now() - request.startedAt;
    request.span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) request.span.setStatus({ code: SpanStatusCode.ERROR });
    request.span.end();
    const steps = Object.fromEntries(request.timings.map((t) => [t.name, Number(t.ms.toFixed(3))]));
    request.log.info(
      { trace_id: request.traceId, method: request.method, route: request.routeOptions.url, status: reply.statusCode, ms: Number(ms.toFixed(3)), steps },
      'request completed',
    );
  });

  app.setNotFoundHandler((_request, reply) => {
    void reply.code(404).send({ detail: 'Not Found' });
  });

  app.setErrorHandler((err, request, reply) => {
    const mapped = errorReply(err, request.traceId);
    const log = { trace_id: request.traceId, status: mapped.status, error: (err as Error).name, reason: (err as Error).message };
    if (mapped.defect) request.log.error({ ...log, stack: (err as Error).stack }, 'request failed');
    else request.log.warn(log, 'request rejected');
    void reply.code(mapped.status).send(mapped.body);
  });

  const routes = registerRoutes(options.deps, (request, run) =>
    context.with(trace.setSpan(context.active(), request.span), run),
    options.tracer,
  );
  void app.register(routes);
  if (options.routePrefix !== '') void app.register(routes, { prefix: options.routePrefix });
  return app;
}
