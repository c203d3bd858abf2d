import { randomUUID } from 'node:crypto';
import type { Agent } from 'undici';
import type { Tracer } from '@opentelemetry/api';
import { createSessionCache } from './cache/create-session-cache.ts';
import type { Config, Party } from './config/config.schema.ts';
import type { Deps, Logger } from './pipeline/deps.ts';
import { createEngineClient } from './clients/engine-client.ts';
import { createGraphqlClient } from './clients/graphql-client.ts';
import { createHandoffDispatcher } from './clients/handoff-client.ts';
import { createKeepAliveAgent, type HttpParty } from './clients/http-json.ts';
import { createPropertyApiClient } from './clients/property-api-client.ts';
import { createTranslateClient } from './clients/translate-client.ts';
import type { OutboundTelemetry } from './telemetry/client-span.ts';
import type { Metrics } from './telemetry/metrics.ts';
import { traceScopedLogger } from './telemetry/trace-logger.ts';

export interface BuiltDeps {
  readonly deps: Deps;
  /** Closes the connection pools (after handoffs are drained). */
  close(): Promise<void>;
}

export interface DepsTelemetry {
  /** The app's tracer (createTracing): a CLIENT span per downstream call. */
  readonly tracer?: Tracer;
  /** The app's metrics (createMetrics): downstream timings and errors, handoffs pending and failed. */
  readonly metrics?: Metrics;
}

/** Builds the real clients for the given addresses (from config, or from the embedded local stack). */
export function createDeps(config: Config, urls: Readonly<Record<Party, string>>, baseLogger: Logger, telemetry: DepsTelemetry = {}): BuiltDeps {
  // Lines logged by steps and clients get the active request's trace_id.
  const logger: Logger = traceScopedLogger(baseLogger);
  const outbound: OutboundTelemetry = {
    ...(telemetry.tracer !== undefined && { tracer: telemetry.tracer }),
    ...(telemetry.metrics !== undefined && { metrics: telemetry.metrics }),
  };
  const metrics = telemetry.metrics;
  const agents: Agent[] = [];
  const party = (name: Party): HttpParty => {
    const dispatcher = createKeepAliveAgent();
    agents.push(dispatcher);
    return { party: name, baseUrl: urls[name], timeoutMs: config.timeoutsMs[name], dispatcher, telemetry: outbound };
  };
  const graphql = party('graphql');
  const cache = createSessionCache({
    redisUrl: config.redisUrl,
    ttlSeconds: config.cacheTtlSeconds,
    maxSessions: config.cacheMaxSessions,
    events: {
      // The chat goes on without the cache; the reason never holds message text.
      error: (operation, err) => {
        metrics?.countCacheLookup('error');
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
      ...(metrics !== undefined && {
        onFailed: () => metrics.countHandoffFailed(),
        onPendingChange: (pending: number) => metrics.setHandoffsPending(pending),
      }),
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
