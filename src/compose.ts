/**
 * The one composition module: from a validated config and a logger, it wires telemetry, the
 * downstream clients, the session cache and (in `local`) the embedded reference parties into one
 * `Deps` object and the Fastify app. It never listens: src/server.ts does, and tests use `app.inject`.
 */
import { randomUUID } from 'node:crypto';
import type { Agent } from 'undici';
import type { Tracer } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import { buildApp } from './app.ts';
import { createSessionCache } from './cache/create-session-cache.ts';
import { createEngineClient } from './clients/engine-client.ts';
import { createGraphqlClient } from './clients/graphql-client.ts';
import { createHandoffDispatcher } from './clients/handoff-client.ts';
import { createKeepAliveAgent, type HttpParty } from './clients/http-json.ts';
import { createPropertyApiClient } from './clients/property-api-client.ts';
import { createTranslateClient } from './clients/translate-client.ts';
import { PARTIES, type Config, type Party } from './config/config.schema.ts';
import type { Deps, Logger } from './pipeline/ports.ts';
import type { OutboundTelemetry } from './telemetry/client-span.ts';
import { createMetrics, type Metrics } from './telemetry/metrics.ts';
import { traceScopedLogger } from './telemetry/trace-logger.ts';
import { createTracing, type TracingOptions } from './telemetry/tracing.ts';

const SERVICE_VERSION = '1.5.0';

/** Tracing settings a caller may add to the configured ones (tests: in-memory exporters). */
export type ExtraTracingOptions = Pick<TracingOptions, 'spanProcessors' | 'onExportError' | 'exportTimeoutMs'>;

export interface ComposedService {
  readonly app: FastifyInstance;
  readonly deps: Deps;
  readonly metrics: Metrics;
  /** Addresses of the parties started by the embedded local stack (empty outside `local`). */
  readonly localUrls: Readonly<Partial<Record<Party, string>>>;
  /**
   * Stops accepting, finishes requests in flight, waits (at most SHUTDOWN_GRACE_MS) for handoffs
   * still being delivered, closes pools and cache, stops the local parties, flushes spans.
   */
  close(): Promise<void>;
}

interface PartyUrls {
  readonly urls: Readonly<Record<Party, string>>;
  readonly local: Readonly<Partial<Record<Party, string>>>;
  close(): Promise<void>;
}

/** Parties without a configured address are started locally (ENVIRONMENT=local only). */
async function resolvePartyUrls(config: Config, logger: PinoLogger): Promise<PartyUrls> {
  const missing = PARTIES.filter((party) => config.urls[party] === undefined);
  if (missing.length === 0) return { urls: config.urls as Record<Party, string>, local: {}, close: async () => {} };
  // The embedded reference stack is reached from start-up only, never from steps or clients.
  const { startLocalStack } = await import('./local/index.ts');
  const stack = await startLocalStack({
    dataDir: config.localDataDir,
    parties: new Set(missing),
    basePort: config.localStackBasePort,
    logger,
  });
  logger.info({ parties: missing, dataDir: config.localDataDir }, 'embedded local stack started');
  return { urls: { ...stack.urls, ...config.urls } as Record<Party, string>, local: stack.urls, close: () => stack.close() };
}

interface BuiltDeps {
  readonly deps: Deps;
  /** Closes the connection pools and the cache (after handoffs are drained). */
  close(): Promise<void>;
}

/** The real clients for the given addresses (from config, or from the embedded local stack). */
async function createDeps(config: Config, urls: Readonly<Record<Party, string>>, baseLogger: Logger, tracer: Tracer, metrics: Metrics): Promise<BuiltDeps> {
  // Lines logged by steps and clients get the active request's trace_id.
  const logger: Logger = traceScopedLogger(baseLogger);
  const outbound: OutboundTelemetry = { tracer, metrics };
  const agents: Agent[] = [];
  const party = (name: Party): HttpParty => {
    const dispatcher = createKeepAliveAgent();
    agents.push(dispatcher);
    return { party: name, baseUrl: urls[name], timeoutMs: config.timeoutsMs[name], dispatcher, telemetry: outbound };
  };
  const graphql = party('graphql');
  const cache = await createSessionCache({
    redisUrl: config.redisUrl,
    ttlSeconds: config.cacheTtlSeconds,
    maxSessions: config.cacheMaxSessions,
    events: {
      // The chat goes on without the cache; the reason never holds message text.
      error: (operation, err) => {
        metrics.countCacheLookup('error');
        logger.warn({ operation, reason: err.message }, 'session cache unavailable; continuing without it');
      },
    },
  });

  const deps: Deps = {
    engine: createEngineClient(party('engine')),
    store: createGraphqlClient({
      url: graphql.baseUrl,
      timeoutMs: graphql.timeoutMs,
      dispatcher: graphql.dispatcher,
      authorization: config.graphqlAuthorization,
      apiKey: config.graphqlApiKey,
      telemetry: outbound,
    }),
    handoff: createHandoffDispatcher(party('handoff'), {
      logger,
      onFailed: () => metrics.countHandoffFailed(),
      onPendingChange: (pending: number) => metrics.setHandoffsPending(pending),
    }),
    translator: createTranslateClient(party('translate')),
    propertyApi: createPropertyApiClient(party('propertyApi')),
    cache,
    clock: { now: () => Date.now() },
    logger,
    settings: {
      defaultPhoneRegion: config.defaultPhoneRegion,
      propertyTimeZone: config.propertyTimeZone,
      cacheRetrieveThreshold: config.cacheRetrieveThreshold,
    },
    newId: randomUUID,
  };
  return {
    deps,
    close: async () => {
      await Promise.all([...agents.map((agent) => agent.close()), cache.close()]);
    },
  };
}

/** Everything the service needs, wired and ready to listen (src/server.ts) or to be injected (tests). */
export async function composeService(config: Config, logger: PinoLogger, extra: ExtraTracingOptions = {}): Promise<ComposedService> {
  const parties = await resolvePartyUrls(config, logger);
  const tracing = createTracing({
    onExportError: (reason) => logger.warn({ reason }, 'span export failed'),
    ...extra,
    disabled: config.disableTracing,
    sampler: config.tracesSampler,
    otlpEndpoint: config.otlpEndpoint,
    environment: config.environment,
    serviceVersion: SERVICE_VERSION,
  });
  const metrics = createMetrics();
  const built = await createDeps(config, parties.urls, logger, tracing.tracer, metrics);
  const app = buildApp({
    deps: built.deps,
    tracer: tracing.tracer,
    routePrefix: config.routePrefix,
    loggerInstance: logger,
    metrics,
    recordMessageText: config.recordMessageText,
    requestTimeoutMs: config.requestTimeoutMs,
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await app.close();
      const pending = await built.deps.handoff.drain(config.shutdownGraceMs);
      await built.close();
      logger.info({ pending_handoffs: pending }, 'service stopped');
      // The local handoff receiver stays up until the drain is over.
      await parties.close();
      // Last, so the handoffs' spans go out too.
      await tracing.shutdown();
    })());
  return { app, deps: built.deps, metrics, localUrls: parties.local, close };
}
