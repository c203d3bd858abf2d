/**
 * The one composition module: from a validated config and a logger, it wires telemetry, the
 * downstream clients, the session cache and (in `local`) the embedded reference parties into one
 * `Deps` object and the Fastify app. It never listens: src/server.ts does, and tests use `app.inject`.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'undici';
import type { CountryCode } from 'libphonenumber-js';
import type { Tracer } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import packageJson from '../package.json' with { type: 'json' };
import { buildApp } from './app.ts';
import { createSessionCache } from './cache/create-session-cache.ts';
import { createEngineClient } from './clients/engine-client.ts';
import { createGraphqlClient } from './clients/graphql-client.ts';
import type { HttpParty } from './clients/http-json.ts';
import { createPartyPool, POOL_CONNECTIONS } from './clients/party-pool.ts';
import { PartySlots } from './clients/party-slots.ts';
import { createPropertyApiClient } from './clients/property-api-client.ts';
import { createTranslateClient } from './clients/translate-client.ts';
import { PARTIES, type Config, type Party } from './config/config.schema.ts';
import { configuredRedisServer } from './config/redis-target.ts';
import { explainBusyPort, explainMissingLocalStack } from './config/start-up-errors.ts';
import { extractContact, warmUpContacts } from './contacts/find-contact.ts';
import { createHandoffOutbox, type OutboxTuning } from './outbox/create-handoff-outbox.ts';
import type { Outbox } from './outbox/outbox.ts';
import type { ReadinessCheck } from './http/readiness.ts';
import { originsWithoutCors } from './http/cors.ts';
import type { Deps, Logger } from './pipeline/ports.ts';
import type { ChatGuards } from './http/chat-plugin.ts';
import { createIdempotencyStore } from './idempotency/create-idempotency-store.ts';
import type { RedisClient } from './shared-state/redis-connection.ts';
import type { ScriptTelemetry } from './shared-state/redis-script.ts';
import { createReplicaAcks, type ReplicaAcks } from './shared-state/replica-ack.ts';
import { createReplicationEvents } from './telemetry/replication-metrics.ts';
import { createRequestMetrics } from './telemetry/request-metrics.ts';
import { createSessionTurns } from './turns/create-session-turns.ts';
import { createStreamLog } from './streams/create-stream-log.ts';
import type { OutboundTelemetry } from './telemetry/fast/client-span.ts';
import { createMetrics, type Metrics } from './telemetry/metrics.ts';
import { createOutboxMetrics } from './telemetry/outbox-metrics.ts';
import { createPoolMetrics } from './telemetry/pool-metrics.ts';
import { traceScopedLogger } from './telemetry/trace-logger.ts';
import { createTracing, type TracingOptions } from './telemetry/tracing.ts';
import { createConcurrencyCeilings } from './fairness/create-concurrency-ceilings.ts';
import { createFairShareMetrics } from './telemetry/fair-share-metrics.ts';
import type { ConcurrencyLimitSettings } from './http/concurrency-limits.ts';


/** Tracing settings a caller may add to the configured ones (tests: in-memory exporters). */
export type ExtraTracingOptions = Pick<TracingOptions, 'spanProcessors' | 'onExportError' | 'exportTimeoutMs'>;

/** What a caller (tests) may add: tracing settings, and shorter outbox timings. */
export type ComposeOptions = ExtraTracingOptions & {
  readonly outbox?: OutboxTuning;
  /** Connections of each party's pool (default 128; fewer under a low open-files limit, src/runtime/descriptor-budget.ts). */
  readonly poolConnections?: number;
};

export interface ComposedService {
  readonly app: FastifyInstance;
  readonly deps: Deps;
  readonly metrics: Metrics;
  /** Idempotency store and session turns, as the routes use them. */
  readonly guards: ChatGuards;
  /** The durable handoff outbox (docs/operations.md#handoffs-and-dead-letters); `outbox.ready()` is its readiness check. */
  readonly outbox: Outbox;
  /** Addresses of the parties started by the embedded local stack (empty outside `local`). */
  readonly localUrls: Readonly<Partial<Record<Party, string>>>;
  /**
   * Stops accepting, finishes requests in flight, lets handoff deliveries in flight finish (at most
   * SHUTDOWN_GRACE_MS; the rest stays in the outbox), closes pools, cache and outbox, stops the
   * local parties, flushes spans.
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
  const { startLocalStack } = await import('./local/index.ts').catch((err: unknown) => {
    throw explainMissingLocalStack(err);
  });
  const stack = await startLocalStack({
    dataDir: config.localDataDir,
    parties: new Set(missing),
    basePort: config.localStackBasePort,
    engineWordMs: config.localEngineWordMs,
    handoffSigningSecrets: config.handoffSigningSecrets,
    logger,
  }).catch((err: unknown) => {
    throw explainBusyPort(err, 'LOCAL_STACK_BASE_PORT', 'another base (the local parties use it + 1..5), or 0 for free ports');
  });
  logger.info({ parties: missing, dataDir: config.localDataDir }, 'embedded local stack started');
  return { urls: { ...stack.urls, ...config.urls } as Record<Party, string>, local: stack.urls, close: () => stack.close() };
}

interface BuiltDeps {
  readonly deps: Deps;
  readonly outbox: Outbox;
  /** What `GET /ready` checks: each store the chats need that can be down. */
  readonly readinessChecks: readonly ReadinessCheck[];
  /** Closes the connection pools, the cache and the outbox (after its deliveries stopped). */
  close(): Promise<void>;
}

/** Each party's keep-alive pool, and for a chat's parties the bounded wait for one of its connections. */
function partyPools(config: Config, urls: Readonly<Record<Party, string>>, outbound: OutboundTelemetry, metrics: Metrics, poolConnections: number | undefined) {
  const pools: Pool[] = [];
  const poolMetrics = createPoolMetrics(metrics.registry);
  const party = (name: Party): HttpParty => {
    const connections = poolConnections ?? POOL_CONNECTIONS;
    const dispatcher = createPartyPool(urls[name], connections);
    pools.push(dispatcher);
    // docs/api.md#fair-shares: a chat's call waits for a connection a share of its time, never to its deadline.
    // Handoff deliveries run in the background with their own retries: undici's own queue serves them.
    if (name === 'handoff') return { party: name, baseUrl: urls[name], timeoutMs: config.timeoutsMs[name], dispatcher, telemetry: outbound };
    const slots = new PartySlots({ party: name, capacity: connections, waitShare: config.fairShares.poolWaitShare, events: poolMetrics.events });
    poolMetrics.watch(name, () => slots.inUse);
    return { party: name, baseUrl: urls[name], timeoutMs: config.timeoutsMs[name], dispatcher, telemetry: outbound, slots };
  };
  return { party, close: () => Promise.all(pools.map((pool) => pool.close())) };
}

/** The session cache (in process, or Redis); a failure is counted and logged, never a failed chat. */
async function composeSessionCache(config: Config, metrics: Metrics, logger: Logger) {
  const cache = await createSessionCache({
    redis: config.redis,
    ttlSeconds: config.cacheTtlSeconds,
    maxSessions: config.cacheMaxSessions,
    maxBytes: config.cacheMaxBytes,
    events: {
      // The chat goes on without the cache; the reason never holds message text.
      error: (operation, err) => {
        metrics.countCacheLookup('error');
        logger.warn({ operation, reason: err.message }, 'session cache unavailable; continuing without it');
      },
    },
  });
  if (cache.countSessions !== undefined) metrics.watchCacheSessions(cache.countSessions.bind(cache));
  return cache;
}

/** The handoff outbox (local, and shared with a Redis), delivering to `receiver`, with its metrics. */
async function composeOutbox(config: Config, receiver: HttpParty, metrics: Metrics, logger: Logger, outboxTuning: OutboxTuning | undefined, replicaAcks: ReplicaAcks | undefined): Promise<Outbox> {
  const outboxMetrics = createOutboxMetrics(metrics.registry, config.redis === undefined ? ['local'] : ['local', 'shared']);
  const outbox = await createHandoffOutbox({
    dataDir: config.dataDir,
    redis: config.redis,
    ...(replicaAcks === undefined ? {} : { replicaAcks }),
    maxAgeSeconds: config.handoffMaxAgeSeconds,
    deadLetterTtlSeconds: config.handoffDeadLetterTtlSeconds,
    lockMs: config.handoffLockMs,
    receiver,
    signingSecrets: config.handoffSigningSecrets,
    legacySignature: config.handoffLegacySignature,
    logger,
    events: outboxMetrics.events,
    ...(outboxTuning === undefined ? {} : { tuning: outboxTuning }),
  });
  outboxMetrics.watch(() => outbox.counts());
  return outbox;
}

/** The real clients for the given addresses (from config, or from the embedded local stack). */
async function createDeps(
  config: Config,
  urls: Readonly<Record<Party, string>>,
  baseLogger: Logger,
  tracer: Tracer,
  metrics: Metrics,
  outboxTuning: OutboxTuning | undefined,
  replicaAcks: ReplicaAcks | undefined,
  poolConnections: number | undefined,
): Promise<BuiltDeps> {
  // Lines logged by steps and clients get the active request's trace_id.
  const logger: Logger = traceScopedLogger(baseLogger);
  const outbound: OutboundTelemetry = { tracer, metrics };
  const pools = partyPools(config, urls, outbound, metrics, poolConnections);
  const graphql = pools.party('graphql');
  const cache = await composeSessionCache(config, metrics, logger);
  const outbox = await composeOutbox(config, pools.party('handoff'), metrics, logger, outboxTuning, replicaAcks);

  const deps: Deps = {
    engine: createEngineClient(pools.party('engine')),
    store: createGraphqlClient({
      url: graphql.baseUrl,
      timeoutMs: graphql.timeoutMs,
      dispatcher: graphql.dispatcher,
      ...(graphql.slots !== undefined && { slots: graphql.slots }),
      authorization: config.graphqlAuthorization,
      apiKey: config.graphqlApiKey,
      telemetry: outbound,
    }),
    handoff: outbox,
    translator: createTranslateClient(pools.party('translate')),
    propertyApi: createPropertyApiClient(pools.party('propertyApi')),
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
  // What GET /ready checks: the stores a chat needs that can be down.
  const readinessChecks: ReadinessCheck[] = [{ name: 'handoff outbox', check: () => outbox.ready() }];
  return {
    deps,
    outbox,
    readinessChecks,
    close: async () => {
      await Promise.all([pools.close(), cache.close(), outbox.close()]);
    },
  };
}

interface ComposedGuards {
  readonly guards: ChatGuards;
  /** The shared-state connection (any topology), also used by the rate limits. */
  readonly redis: RedisClient | undefined;
  /** With a Redis configured: `redis`, required until this connection has answered once. */
  readonly readinessChecks: readonly ReadinessCheck[];
  close(): Promise<void>;
}

/**
 * Idempotency store, session turns and rate limits (docs/api.md#idempotency, docs/api.md#rate-limits, docs/api.md#one-turn-at-a-time-per-session): in-process, or with
 * a Redis configured (any topology) on one shared-state connection (the session cache keeps its own). A Redis fault falls back to
 * in-process state for that request, with a warning and a metric, never a failed chat (6.8).
 */
async function composeChatGuards(config: Config, logger: Logger, metrics: Metrics, replicaAcks: ReplicaAcks | undefined, tracer: Tracer): Promise<ComposedGuards> {
  const requestMetrics = createRequestMetrics(metrics.registry);
  // Each Redis script call of a chat: the latency histogram, and a CLIENT span under the chat's span.
  const server = config.redis === undefined ? undefined : configuredRedisServer(config.redis);
  const redisTelemetry: ScriptTelemetry = {
    observe: requestMetrics.observeRedisCall,
    tracer,
    server: server === undefined ? undefined : { address: server.host, port: server.port },
  };
  // ioredis is loaded only when Redis is configured.
  const sharedState = config.redis === undefined ? undefined : await import('./shared-state/redis-connection.ts');
  const redis = config.redis === undefined || sharedState === undefined ? undefined : sharedState.connectRedis(config.redis, {
    onOutage: (err) => logger.warn({ reason: err.message }, 'redis unreachable: idempotency, session turns and rate limits go on in-process'),
  });
  const idempotency = createIdempotencyStore({
    redis,
    ...(replicaAcks === undefined ? {} : { replicaAcks }),
    ttlSeconds: config.idempotencyTtlSeconds,
    requestTimeoutMs: config.requestTimeoutMs,
    maxKeys: config.idempotencyMaxKeys,
    maxBytes: config.idempotencyMaxBytes,
    redisTelemetry,
    events: {
      fallback: (operation, err) => {
        requestMetrics.countSharedStateFallback('idempotency');
        logger.warn({ operation, reason: err.message }, 'idempotency store unavailable; this request uses the in-process store');
      },
    },
  });
  const turns = createSessionTurns({
    redis,
    sessionTtlSeconds: config.cacheTtlSeconds,
    redisTelemetry,
    events: {
      fallback: (operation, err) => {
        requestMetrics.countSharedStateFallback('turns');
        logger.warn({ operation, reason: err.message }, 'session turn queue unavailable; this request keeps in-process order only (and rate limits kept per instance)');
      },
      leaseExpired: () => {
        requestMetrics.countLeaseExpired();
        logger.warn({}, 'a session turn outlived its lease');
      },
    },
  });
  return {
    guards: {
      idempotency,
      turns,
      metrics: requestMetrics,
      // Streamed replies' parts, for resume and stop from any instance (docs/api.md#resuming-a-streamed-reply).
      streams: createStreamLog(redis, {
        error: (operation, err) => logger.warn({ operation, reason: err.message }, 'stream log unavailable; resumers of this reply are told it was interrupted'),
      }),
    },
    redis,
    readinessChecks:
      redis === undefined || sharedState === undefined
        ? []
        : [{ name: 'redis', check: () => sharedState.redisAnswers(redis), reachedOnce: () => sharedState.hasAnswered(redis) }],
    close: async () => {
      await idempotency.close();
      if (redis === undefined) return;
      await redis.quit().catch(() => {});
      redis.disconnect();
    },
  };
}

/** docs/api.md#fair-shares: the concurrency ceilings, on the shared-state connection when REDIS_URL is set. */
function composeConcurrency(config: Config, redis: RedisClient | undefined, logger: Logger, metrics: Metrics): ConcurrencyLimitSettings {
  const fairShareMetrics = createFairShareMetrics(metrics.registry);
  const ceilings = createConcurrencyCeilings({
    redis,
    // Longer than any chat's work: a lease never given back (a crash) expires by itself.
    leaseMs: config.requestTimeoutMs + 5_000,
    onFallback: (err) => {
      fairShareMetrics.fellBack();
      logger.warn({ reason: err.message }, 'concurrency ceilings unavailable in Redis; this chat is counted in process');
    },
  });
  return { ceilings, perClient: config.fairShares.perClient, perOrg: config.fairShares.perOrg, onRefused: fairShareMetrics.refused };
}

/**
 * docs/api.md#limits: the contact finders' libraries (compromise and its lexicon, libphonenumber's full
 * metadata) are loaded, and run once, before the instance listens: loaded on the first contact chat
 * they held the event loop 0.3-1.7 s, every chat in flight and /heartbeat with it. The idle process
 * holds them for it (README, Performance: idle memory).
 */
async function preloadContactFinders(config: Config, logger: PinoLogger): Promise<void> {
  if (!(await warmUpContacts())) {
    logger.warn({}, 'contact finders could not be loaded at start-up; the first contact chat loads them');
    return;
  }
  // The first run compiles what the libraries build lazily (patterns, lexicon lookups).
  await extractContact("Hi, I'm Maria Lopez, call me at 305-482-7719 or maria@example.com", { defaultRegion: config.defaultPhoneRegion as CountryCode });
}

/** Start-up warnings about what the configuration leaves open to anyone. */
function warnOfOpenDoors(config: Config, logger: PinoLogger): void {
  if (config.handoffUnsigned && config.handoffSigningSecrets.length === 0) {
    logger.warn({ environment: config.environment }, 'HANDOFF_UNSIGNED=true: handoffs (visitors\' contact details) are delivered without a signature');
  }
  if (config.callerKeys === undefined && config.publishableKeys === undefined && config.environment !== 'local') {
    logger.warn({ environment: config.environment }, 'CALLER_API_KEYS is not set: chats are accepted from any caller');
  }
  // A publishable key's origin that CORS does not allow could never read an answer.
  for (const { name, origin } of originsWithoutCors(config.publishableKeys ?? [], config.corsOrigins)) {
    logger.warn({ key: name, origin }, 'a PUBLISHABLE_KEYS origin is not in CORS_ORIGINS: browsers there cannot read the answers');
  }
}

/** Everything the service needs, wired and ready to listen (src/server.ts) or to be injected (tests). */
export async function composeService(config: Config, logger: PinoLogger, options: ComposeOptions = {}): Promise<ComposedService> {
  const { outbox: outboxTuning, poolConnections, ...extra } = options;
  const parties = await resolvePartyUrls(config, logger);
  await preloadContactFinders(config, logger);
  const tracing = createTracing({
    onExportError: (reason) => logger.warn({ reason }, 'span export failed'),
    ...extra,
    disabled: config.disableTracing,
    fastPaths: config.telemetryFastPaths,
    sampler: config.tracesSampler,
    otlpEndpoint: config.otlpEndpoint,
    environment: config.environment,
    serviceVersion: packageJson.version,
    instanceId: config.resource.instanceId,
    serviceName: config.resource.serviceName,
    resourceAttributes: config.resource.attributes,
  });
  const metrics = createMetrics();
  // Writes that must survive a failover wait for REDIS_WAIT_REPLICAS replicas (docs/operations.md#what-a-failover-costs).
  // The counter is served without Redis too (at 0), so its alert's query always finds it.
  const replicationEvents = createReplicationEvents(metrics.registry, logger);
  const replicaAcks = config.redis === undefined ? undefined : createReplicaAcks(config.redis.wait, replicationEvents, Date.now, config.redis.kind !== 'cluster');
  const built = await createDeps(config, parties.urls, logger, tracing.tracer, metrics, outboxTuning, replicaAcks, poolConnections);
  const guarded = await composeChatGuards(config, traceScopedLogger(logger), metrics, replicaAcks, tracing.tracer);
  const concurrency = composeConcurrency(config, guarded.redis, traceScopedLogger(logger), metrics);
  warnOfOpenDoors(config, logger);
  const app = buildApp({
    deps: built.deps,
    tracer: tracing.tracer,
    routePrefix: config.routePrefix,
    loggerInstance: logger,
    metrics,
    recordMessageText: config.recordMessageText,
    requestTimeoutMs: config.requestTimeoutMs,
    requestGuards: guarded.guards,
    callerKeys: config.callerKeys,
    publishableKeys: config.publishableKeys,
    corsOrigins: config.corsOrigins,
    overloadMaxEventLoopDelayMs: config.overloadMaxEventLoopDelayMs,
    rateLimits: {
      sessionPerMin: config.rateLimitSessionPerMin,
      orgPerMin: config.rateLimitOrgPerMin,
      clientPerMin: config.rateLimitClientPerMin,
    },
    admin: config.adminApiKey === undefined ? undefined : { apiKey: config.adminApiKey, handoffs: built.outbox },
    readinessChecks: [...built.readinessChecks, ...guarded.readinessChecks],
    playground: config.playground,
    concurrency,
    metricsElsewhere: config.metricsPort !== undefined,
    connections: { keepAliveTimeoutMs: config.keepAliveTimeoutMs, receiveTimeoutMs: config.requestReceiveTimeoutMs, maxConnections: config.maxConnections },
  });
  // What an earlier run left undelivered is delivered from now on.
  built.outbox.start();

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Chats in flight are answered first, for SHUTDOWN_GRACE_MS at most; then their connections are cut.
      const cut = setTimeout(() => app.server.closeAllConnections(), config.shutdownGraceMs);
      await app.close();
      clearTimeout(cut);
      const inFlight = await built.outbox.stop(config.shutdownGraceMs);
      await built.close();
      await guarded.close();
      logger.info({ handoffs_in_flight: inFlight }, 'service stopped');
      // The local handoff receiver stays up until deliveries in flight are over.
      await parties.close();
      // Last, so the handoffs' spans go out too.
      await tracing.shutdown();
    })());
  return { app, deps: built.deps, metrics, guards: guarded.guards, outbox: built.outbox, localUrls: parties.local, close };
}
