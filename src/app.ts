import { performance } from 'node:perf_hooks';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { context, trace, type Span, type Tracer } from '@opentelemetry/api';
import { BODY_LIMIT_BYTES } from '../schemas/chat-request.schema.ts';
import type { Deps } from './pipeline/ports.ts';
import type { StepTiming } from './pipeline/runner.ts';
import { roundMs, serverTiming } from './pipeline/latency.ts';
import { callerAuth, type CallerKey } from './http/caller-auth.ts';
import type { CorsOrigins } from './config/cors-origins.ts';
import type { PublishableKeyEntry } from './config/config.schema.ts';
import { chatCors } from './http/cors.ts';
import { TRACE_RESPONSE_HEADER, traceResponse } from './http/trace-response.ts';
import { connectionServerOptions, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './http/connection-limits.ts';
import { registerDocs } from './http/docs.ts';
import { errorReply, sendError } from './http/error-replies.ts';
import { adminRoutes, type AdminRoutesOptions } from './http/admin-routes.ts';
import { acceptJsonOnly } from './http/json-body.ts';
import { overload } from './http/overload.ts';
import { rateLimits, type RateLimitSettings } from './http/rate-limits.ts';
import { concurrencyLimits, type ConcurrencyLimitSettings } from './http/concurrency-limits.ts';
import { metricsAccess } from './http/metrics-access.ts';
import { playgroundRoutes } from './http/playground.ts';
import { readinessRoute, type ReadinessCheck } from './http/readiness.ts';
import { captureRefusal, decorateRefusals, refusalLogger } from './http/refusal-log.ts';
import { decorateRequestOutcome, outcomeStatusOf, stepNameOf } from './http/request-outcome.ts';
import { takeLatency } from './http/request-latency.ts';
import { registerRoutes, type ChatGuards } from './http/routes.ts';
import type { Metrics } from './telemetry/metrics.ts';
import { describeError, stackFrames } from './telemetry/safe-error.ts';
import { endServerSpan, nameServerSpan, serverSpanOf, tracedRequestIds, untracedRequestId } from './telemetry/server-span.ts';

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

/** pino's level check; Fastify's logger type does not declare it, so any other logger writes always. */
function infoEnabled(log: unknown): boolean {
  return (log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? true;
}

export interface AppOptions {
  readonly deps: Deps;
  readonly tracer: Tracer;
  /** ROUTE_PREFIX: both routes are also served under it. */
  readonly routePrefix: string;
  readonly loggerInstance: NonNullable<FastifyServerOptions['loggerInstance']>;
  /** Prometheus metrics (src/telemetry/metrics.ts): fed per request and served at `GET /metrics`. */
  readonly metrics?: Metrics;
  /** TRACE_MESSAGE_TEXT: the message goes on the askEngine span. Default false. */
  readonly recordMessageText?: boolean;
  /** REQUEST_TIMEOUT_MS (docs/api.md#deadline): the deadline of every chat. */
  readonly requestTimeoutMs: number;
  /** Idempotency store and session turns (docs/api.md#idempotency, docs/api.md#one-turn-at-a-time-per-session). */
  readonly requestGuards: ChatGuards;
  /** CALLER_API_KEYS (docs/api.md#caller-keys); undefined = no caller authentication. */
  readonly callerKeys?: readonly CallerKey[] | undefined;
  /** PUBLISHABLE_KEYS (docs/browser-widgets.md#publishable-keys); undefined = none. */
  readonly publishableKeys?: readonly PublishableKeyEntry[] | undefined;
  /** docs/api.md#rate-limits (compose.ts passes the configured limits); unset = no rate limits. */
  readonly rateLimits?: RateLimitSettings;
  /** docs/api.md#overload-and-input-depth: chats are shed while the event loop lags more than this (compose.ts passes the configured 1000 ms); unset or 0 = off. */
  readonly overloadMaxEventLoopDelayMs?: number;
  /** The /admin routes (docs/operations.md#handoffs-and-dead-letters, docs/api.md#caller-keys); not served without it (ADMIN_API_KEY unset). */
  readonly admin?: AdminRoutesOptions | undefined;
  /** What `GET /ready` checks (src/http/readiness.ts); none means ready whenever the process serves. */
  readonly readinessChecks?: readonly ReadinessCheck[];
  /** PLAYGROUND: serve the chat page at /playground. Default false. */
  readonly playground?: boolean;
  /** Connection ceilings (docs/api.md#limits); each unset member takes its default. */
  readonly connections?: Partial<ConnectionLimits>;
  /** docs/api.md#fair-shares: chats in flight per client and organisation; unset = no ceilings. */
  readonly concurrency?: ConcurrencyLimitSettings;
  /** METRICS_PORT is set: /metrics is served there only (src/http/metrics-access.ts). */
  readonly metricsElsewhere?: boolean;
  /** CORS_ORIGINS (docs/browser-widgets.md#cors); unset = no cross-origin calls. */
  readonly corsOrigins?: CorsOrigins | undefined;
}

/** Builds the service (never listens: src/server.ts does). */
export function buildApp(options: AppOptions): FastifyInstance {
  const connections: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
  const app = Fastify({
    ...connectionServerOptions(connections),
    loggerInstance: options.loggerInstance,
    // The request id is the trace id (the SERVER span starts here), and Fastify's own per-request
    // child logger puts it on every line as `trace_id`: one id per request, one child logger.
    genReqId: tracedRequestIds(options.tracer),
    // Fastify's own per-request lines are off: one line per request is written in onResponse instead.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'trace_id' }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Answered by the onRequest hook below instead, in the `detail` shape.
    return503OnClosing: false,
    ajv: {
      // No type coercion ("true" is not a boolean); unknown members are stripped, never forwarded.
      customOptions: { coerceTypes: false, removeAdditional: true, useDefaults: true, allErrors: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.server.maxConnections = connections.maxConnections;

  acceptJsonOnly(app);
  app.decorateRequest('span', undefined as unknown as Span);
  app.decorateRequest('traceId', '');
  app.decorateRequest('startedAt', 0);
  app.decorateRequest('routeTemplate', '');
  app.decorateRequest('timings', undefined as unknown as StepTiming[]);
  app.decorateRequest('totalMs', undefined);
  decorateRequestOutcome(app);
  decorateRefusals(app);

  // A keep-alive connection whose request was in flight at shutdown would otherwise stay open
  // and hold app.close() until the client drops it: answer it with `Connection: close` instead.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });

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
    // A request that reaches a closing server (pipelined, or on a busy keep-alive connection) is
    // refused at once in the detail shape, its connection closed: the balancer sends it elsewhere.
    // (Here rather than in a hook of its own: one hook less for every request.)
    if (!closing) return done();
    sendError(reply, 503, 'Service shutting down', { 'retry-after': '1' });
  });
  // docs/api.md#limits, set once here for every answer (routes, plugins, errors, 404s): browsers never
  // guess a content type; chat answers (visitor text, contact details) are never cached on the way.
  const chatRoutes: ReadonlySet<string> = new Set(['/chat_adapter', `${options.routePrefix}/chat_adapter`]);
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-content-type-options', 'nosniff');
    // docs/api.md#limits: no page or link of the service ever tells a third party where it came from.
    void reply.header('referrer-policy', 'no-referrer');
    if (request.method === 'POST' && chatRoutes.has(request.routeTemplate)) void reply.header('cache-control', 'no-store');
    if (closing) void reply.header('connection', 'close');
    captureRefusal(request, reply, payload);
    done(null, payload);
  });

  // Probes and scrapes: counted, but no log line (one every few seconds per instance says nothing).
  const quietRoutes: ReadonlySet<string> = new Set(['/heartbeat', '/metrics', '/ready'].flatMap((path) => [path, `${options.routePrefix}${path}`]));
  const logRefusal = refusalLogger();
  /**
   * Ends the server span, feeds the metrics and writes the request's one log line. All three record
   * the answer's outcome (src/http/request-outcome.ts): a streamed chat that failed is its error status.
   */
  const recordRequest = (request: FastifyRequest, reply: FastifyReply): void => {
    const endedAt = performance.now();
    const ms = endedAt - request.startedAt;
    const status = outcomeStatusOf(request, reply);
    // Exemplars name only traces that are recorded (and so can be found); read before the span ends.
    const exemplar = request.span.isRecording() ? request.traceId : undefined;
    endServerSpan(request.span, reply.statusCode, endedAt, status);
    const route = request.routeTemplate;
    if (options.metrics) {
      options.metrics.observeRequest(request.method, route, status, ms / 1000, request.caller?.name, request.answerMode, exemplar);
      for (const t of request.timings) options.metrics.observeStep(stepNameOf(request, t.name), t.ms / 1000, t.ok, exemplar);
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
  app.addHook('onResponse', (request, reply, done) => {
    recordRequest(request, reply);
    done();
  });

  app.setNotFoundHandler((_request, reply) => {
    sendError(reply, 404, 'Not Found');
  });

  app.setErrorHandler((err, request, reply) => {
    const mapped = errorReply(err, request.traceId);
    // Name, code and a message only when it holds no input: never the body, a secret or a contact.
    const log = { status: mapped.status, ...(mapped.party !== undefined && { party: mapped.party }), ...describeError(err) };
    if (mapped.defect) request.log.error({ ...log, stack: stackFrames(err) }, mapped.logMessage);
    else request.log.warn(log, mapped.logMessage);
    request.errorLogged = true;
    // The steps that ran before the failure (e.g. a slow engine before a 503) are timed too.
    if (request.timings.length > 0) {
      void reply.header('server-timing', serverTiming(takeLatency(request, false)));
    }
    sendError(reply, mapped.status, mapped.detail, mapped.retryAfterSeconds === undefined ? undefined : { 'retry-after': mapped.retryAfterSeconds });
  });

  // The gate, in this order, before any route: overload (onRequest), caller key (onRequest: 401;
  // preHandler: 403), rate limits (preHandler: 429). docs/api.md#caller-keys, docs/api.md#rate-limits, docs/api.md#overload-and-input-depth.
  // CORS first: a preflight is answered before the gate (a browser never sends the key on it).
  if (options.corsOrigins !== undefined) void app.register(chatCors, { origins: options.corsOrigins, routePrefix: options.routePrefix });
  void app.register(overload, {
    routePrefix: options.routePrefix,
    maxEventLoopDelayMs: options.overloadMaxEventLoopDelayMs,
    ...(options.metrics !== undefined && { onShed: options.metrics.countShed }),
  });
  void app.register(callerAuth, { keys: options.callerKeys, publishableKeys: options.publishableKeys, routePrefix: options.routePrefix });
  void app.register(rateLimits, { ...options.rateLimits, routePrefix: options.routePrefix });
  void app.register(concurrencyLimits, { ...options.concurrency, routePrefix: options.routePrefix });
  void app.register(metricsAccess, { routePrefix: options.routePrefix, callersAuthenticate: options.callerKeys !== undefined || options.publishableKeys !== undefined, adminApiKey: options.admin?.apiKey, servedElsewhere: options.metricsElsewhere ?? false });

  // Before any route, so that the OpenAPI document sees them all.
  registerDocs(app, options.routePrefix);
  const routes = registerRoutes(
    options.deps,
    (request, run) => context.with(trace.setSpan(context.active(), request.span), run),
    options.tracer,
    { metrics: options.metrics, recordMessageText: options.recordMessageText ?? false, requestTimeoutMs: options.requestTimeoutMs },
    options.requestGuards,
  );
  void app.register(routes);
  if (options.admin) void app.register(adminRoutes(options.admin));
  if (options.routePrefix !== '') void app.register(routes, { prefix: options.routePrefix });
  // A readiness probe makes no trace (as /heartbeat and /metrics): an id, no span.
  void app.register(async (untraced) => {
    untraced.setGenReqId(untracedRequestId);
    await untraced.register(readinessRoute(options.readinessChecks ?? []));
  });
  if (options.playground === true) void app.register(playgroundRoutes);
  return app;
}
