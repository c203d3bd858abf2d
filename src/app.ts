/**
 * Builds the service (never listens: src/server.ts does): the Fastify instance, then its plugins in
 * order, each one concern. The first four apply to the whole app (fastify-plugin); the routes are
 * encapsulated, so a hook added with them applies to them alone. The chat and the probes are
 * registered once per route prefix: at the root and, when set, under ROUTE_PREFIX.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Tracer } from '@opentelemetry/api';
import { BODY_LIMIT_BYTES } from '../schemas/chat-request.schema.ts';
import { adminRoutes, type AdminRoutesOptions } from './http/admin-routes.ts';
import { chatPlugin, type ChatPluginOptions } from './http/chat-plugin.ts';
import { closingAnswers } from './http/closing-answers.ts';
import { connectionServerOptions, DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './http/connection-limits.ts';
import { registerDocs } from './http/docs.ts';
import { errorHandler } from './http/error-handler.ts';
import { acceptJsonOnly } from './http/json-body.ts';
import { playgroundRoutes } from './http/playground.ts';
import { probeRoutes } from './http/probe-routes.ts';
import { readinessRoute, type ReadinessCheck } from './http/readiness.ts';
import { requestTelemetry } from './http/request-telemetry.ts';
import { responseHeaders } from './http/response-headers.ts';
import { untraced } from './http/untraced.ts';
import { tracedRequestIds } from './telemetry/fast/server-span.ts';

export interface AppOptions extends ChatPluginOptions {
  readonly tracer: Tracer;
  /** ROUTE_PREFIX: the chat and the probes are also served under it. */
  readonly routePrefix: string;
  readonly loggerInstance: NonNullable<FastifyServerOptions['loggerInstance']>;
  /** The /admin routes (docs/operations.md#handoffs-and-dead-letters, docs/api.md#caller-keys); not served without it (ADMIN_API_KEY unset). */
  readonly admin?: AdminRoutesOptions | undefined;
  /** What `GET /ready` checks (src/http/readiness.ts); none means ready whenever the process serves. */
  readonly readinessChecks?: readonly ReadinessCheck[];
  /** PLAYGROUND: serve the chat page at /playground. Default false. */
  readonly playground?: boolean;
  /** Connection ceilings (docs/api.md#limits); each unset member takes its default. */
  readonly connections?: Partial<ConnectionLimits>;
  /** METRICS_PORT is set: /metrics is served there only (src/http/metrics-access.ts). */
  readonly metricsElsewhere?: boolean;
}

/** The Fastify factory's options: connection ceilings, logging, request ids, body limit, validation. */
function serverOptions(options: AppOptions, connections: ConnectionLimits): FastifyServerOptions {
  return {
    ...connectionServerOptions(connections),
    loggerInstance: options.loggerInstance,
    // The request id is the trace id (the SERVER span starts here), and Fastify's own per-request
    // child logger puts it on every line as `trace_id`: one id per request, one child logger.
    genReqId: tracedRequestIds(options.tracer),
    // Fastify's own per-request lines are off: one line per request is written by request-telemetry.ts instead.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'trace_id' }),
    bodyLimit: BODY_LIMIT_BYTES,
    // Answered by src/http/closing-answers.ts instead, in the `detail` shape.
    return503OnClosing: false,
    ajv: {
      // No type coercion ("true" is not a boolean); unknown members are stripped, never forwarded.
      customOptions: { coerceTypes: false, removeAdditional: true, useDefaults: true, allErrors: false },
    },
  };
}

export function buildApp(options: AppOptions): FastifyInstance {
  const connections: ConnectionLimits = { ...DEFAULT_CONNECTION_LIMITS, ...options.connections };
  const app = Fastify(serverOptions(options, connections)).withTypeProvider<TypeBoxTypeProvider>();
  app.server.maxConnections = connections.maxConnections;

  acceptJsonOnly(app);
  // In this order: the span and trace header are set before a closing server refuses a request.
  void app.register(requestTelemetry, { metrics: options.metrics, routePrefix: options.routePrefix });
  void app.register(closingAnswers);
  void app.register(responseHeaders);
  void app.register(errorHandler);
  // Before any route, so that the OpenAPI document sees them all.
  registerDocs(app, options.routePrefix);

  const probes = untraced(probeRoutes({
    metrics: options.metrics,
    metricsAccess: {
      callersAuthenticate: options.callerKeys !== undefined || options.publishableKeys !== undefined,
      adminApiKey: options.admin?.apiKey,
      servedElsewhere: options.metricsElsewhere ?? false,
    },
  }));
  const chat = chatPlugin(options);
  void app.register(probes);
  void app.register(chat);
  // (Registered in this order, the OpenAPI document lists the admin routes before the prefixed copies.)
  if (options.admin) void app.register(adminRoutes(options.admin));
  if (options.routePrefix !== '') {
    void app.register(probes, { prefix: options.routePrefix });
    void app.register(chat, { prefix: options.routePrefix });
  }
  void app.register(untraced(readinessRoute(options.readinessChecks ?? [])));
  if (options.playground === true) void app.register(playgroundRoutes);
  return app;
}
