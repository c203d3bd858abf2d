import { Type, type Static } from '@sinclair/typebox';
import { ENVIRONMENTS, type Environment } from './environment.ts';
import type { FairSharesConfig } from './fair-shares-config.ts';
import type { RedisTarget } from './redis-target.ts';
import type { CorsOrigins } from './cors-origins.ts';
import type { ResourceConfig } from './resource-config.ts';
import type { TracesSamplerConfig } from './sampler-config.ts';


export const PARTIES = ['engine', 'translate', 'handoff', 'graphql', 'propertyApi'] as const;
export type Party = (typeof PARTIES)[number];

const NullableUrl = Type.Union([Type.String({ minLength: 1 }), Type.Null()]);

/** Shape of `config/<ENVIRONMENT>.json`: addresses only, never secrets. */
export const ConfigFileSchema = Type.Object(
  {
    environment: Type.Union(ENVIRONMENTS.map((e) => Type.Literal(e))),
    engineUrl: NullableUrl,
    translateUrl: NullableUrl,
    handoffUrl: NullableUrl,
    graphqlUrl: NullableUrl,
    propertyApiUrl: NullableUrl,
    localDataDir: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);
export type ConfigFile = Static<typeof ConfigFileSchema>;

/** One CALLER_API_KEYS entry (docs/api.md#caller-keys); the key is digested once when the app is built. */
export interface CallerKeyEntry {
  readonly name: string;
  readonly key: string;
  /** The organisations the key may post for; undefined = any. */
  readonly orgIds: readonly string[] | undefined;
}

/** One PUBLISHABLE_KEYS entry (docs/browser-widgets.md#publishable-keys); the key is digested once when the app is built. */
export interface PublishableKeyEntry {
  readonly name: string;
  /** Begins `pk_`. */
  readonly key: string;
  /** Exact origins (as browsers send `Origin`) the key is accepted from. */
  readonly origins: readonly string[];
  readonly orgId: string;
  readonly propertyIds: readonly string[];
}

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly environment: Environment;
  /** Base address per party; `undefined` only in `local`, where the embedded stack provides it. */
  readonly urls: Readonly<Partial<Record<Party, string>>>;
  readonly timeoutsMs: Readonly<Record<Party, number>>;
  readonly graphqlAuthorization: string | undefined;
  readonly graphqlApiKey: string | undefined;
  readonly disableTracing: boolean;
  /**
   * TELEMETRY_FAST_PATHS (default true): step, CLIENT and Redis spans handed straight to the span
   * processors, and an ids-only SERVER span when no processor exists (src/telemetry/fast/README.md).
   * false: every span through the OpenTelemetry SDK's own `tracer.startSpan`.
   */
  readonly telemetryFastPaths: boolean;
  /** OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (src/config/sampler-config.ts). */
  readonly tracesSampler: TracesSamplerConfig;
  /** OTEL_SERVICE_NAME / OTEL_RESOURCE_ATTRIBUTES and the process's service.instance.id (src/config/resource-config.ts). */
  readonly resource: ResourceConfig;
  readonly recordMessageText: boolean;
  readonly otlpEndpoint: string | undefined;
  /**
   * The shared state's Redis (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES, with their options:
   * src/config/redis-target.ts); undefined = all shared state in process. Holds secrets: never logged.
   */
  readonly redis: RedisTarget | undefined;
  readonly logLevel: string;
  readonly routePrefix: string;
  readonly defaultPhoneRegion: string;
  /** IANA zone in which tour times are told to visitors. */
  readonly propertyTimeZone: string;
  readonly cacheTtlSeconds: number;
  readonly cacheMaxSessions: number;
  /** CACHE_MAX_BYTES: heap the in-process session cache may hold (docs/api.md#limits). */
  readonly cacheMaxBytes: number;
  readonly cacheRetrieveThreshold: number;
  readonly localDataDir: string;
  /** Local parties listen on this + 1..5; 0 = free ports. */
  readonly localStackBasePort: number;
  /** The reference engine's pace when it streams a `rag` reply: ms between words (`local` only). */
  readonly localEngineWordMs: number;
  readonly shutdownGraceMs: number;
  /** docs/api.md#deadline: every chat is answered within this many ms. */
  readonly requestTimeoutMs: number;
  /** docs/api.md#idempotency: how long the first 200 answer to an Idempotency-Key is kept for replay (seconds). */
  readonly idempotencyTtlSeconds: number;
  /** Bound of the in-process idempotency store (kept answers). */
  readonly idempotencyMaxKeys: number;
  /** IDEMPOTENCY_MAX_BYTES: heap the in-process kept answers may hold (docs/api.md#limits). */
  readonly idempotencyMaxBytes: number;
  // Callers and limits (docs/api.md#caller-keys, docs/api.md#rate-limits, docs/api.md#overload-and-input-depth): src/http/caller-auth.ts, rate-limits.ts, overload.ts.
  /** CALLER_API_KEYS; undefined = no caller authentication. */
  readonly callerKeys: readonly CallerKeyEntry[] | undefined;
  /** PUBLISHABLE_KEYS (docs/browser-widgets.md#publishable-keys); undefined = none. */
  readonly publishableKeys: readonly PublishableKeyEntry[] | undefined;
  /** CORS_ORIGINS (docs/browser-widgets.md#cors): `local` by default in ENVIRONMENT=local, none elsewhere. */
  readonly corsOrigins: CorsOrigins;
  /** Chats per minute per session (`orgId`, `propertyId`, `session_id`); 0 = off. */
  readonly rateLimitSessionPerMin: number;
  /** Chats per minute per organisation; 0 = off. */
  readonly rateLimitOrgPerMin: number;
  /** Chats per minute per client (caller key name with CALLER_API_KEYS, else peer IP); 0 = off. */
  readonly rateLimitClientPerMin: number;
  /** docs/api.md#overload-and-input-depth: chats are shed while the event loop's delay is over this many ms; 0 = off. */
  readonly overloadMaxEventLoopDelayMs: number;
  /** DATA_DIR: the service's own durable files (the local handoff outbox, docs/operations.md#handoffs-and-dead-letters). */
  readonly dataDir: string;
  /** HANDOFF_MAX_AGE_S: a handoff is retried until this many seconds after it was written. */
  readonly handoffMaxAgeSeconds: number;
  /** HANDOFF_LOCK_MS: how long a delivering instance holds a handoff; a dead one's is taken over after it. */
  readonly handoffLockMs: number;
  /** HANDOFF_SIGNING_SECRET (docs/handoff-receivers.md): `whsec_` secrets, the newest first, each gets a `v1,` signature; empty = unsigned. Never logged. */
  readonly handoffSigningSecrets: readonly string[];
  /** HANDOFF_LEGACY_SIGNATURE: also send the former `X-Chat-Adapter-Signature` (kept for one minor version). */
  readonly handoffLegacySignature: boolean;
  /** ADMIN_API_KEY: bearer key of the /admin routes, which are not served when unset. Never logged. */
  readonly adminApiKey: string | undefined;
  /** KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed after this (docs/api.md#limits). */
  readonly keepAliveTimeoutMs: number;
  /** REQUEST_RECEIVE_TIMEOUT_MS: a request whose head or body has not arrived within this gets 408 and is closed. */
  readonly requestReceiveTimeoutMs: number;
  /** MAX_CONNECTIONS: connections open at once; more are dropped (docs/api.md#limits). */
  readonly maxConnections: number;
  /** HANDOFF_DEAD_LETTER_TTL_S: a dead-lettered handoff (with its contact details) is deleted this long after it died. */
  readonly handoffDeadLetterTtlSeconds: number;
  /** PLAYGROUND: serve the chat page at /playground (default: only in `local`). */
  readonly playground: boolean;
  /**
   * PLAYGROUND_PORT: the same app also listens here (on HOST), a port browsers accept; undefined =
   * off (0, outside `local` by default, or the same as PORT). `required`: set explicitly, so a busy
   * port stops the start instead of being skipped with a warning.
   */
  readonly playgroundListener: { readonly port: number; readonly required: boolean } | undefined;
  /** docs/api.md#fair-shares: concurrency ceilings and the bounded wait for a party's connection. */
  readonly fairShares: FairSharesConfig;
  /** METRICS_PORT: /metrics is served only on this port; undefined = on PORT (admin key needed with caller keys). */
  readonly metricsPort: number | undefined;
  /** HANDOFF_UNSIGNED: handoffs go out unsigned in prod by choice (a start-up warning). */
  readonly handoffUnsigned: boolean;
}
