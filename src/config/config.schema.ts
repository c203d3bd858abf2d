import { Type, type Static } from '@sinclair/typebox';
import type { TracesSamplerConfig } from './sampler-config.ts';

export const ENVIRONMENTS = ['local', 'qa', 'staging', 'prod'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

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
  /** OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG (src/config/sampler-config.ts). */
  readonly tracesSampler: TracesSamplerConfig;
  readonly recordMessageText: boolean;
  readonly otlpEndpoint: string | undefined;
  readonly redisUrl: string | undefined;
  readonly logLevel: string;
  readonly routePrefix: string;
  readonly defaultPhoneRegion: string;
  /** IANA zone in which tour times are told to visitors. */
  readonly propertyTimeZone: string;
  readonly cacheTtlSeconds: number;
  readonly cacheMaxSessions: number;
  readonly cacheRetrieveThreshold: number;
  readonly localDataDir: string;
  /** Local parties listen on this + 1..5; 0 = free ports. */
  readonly localStackBasePort: number;
  readonly shutdownGraceMs: number;
  /** docs/api.md#deadline: every chat is answered within this many ms. */
  readonly requestTimeoutMs: number;
  /** docs/api.md#idempotency: how long the first 200 answer to an Idempotency-Key is kept for replay (seconds). */
  readonly idempotencyTtlSeconds: number;
  /** Bound of the in-process idempotency store (kept answers). */
  readonly idempotencyMaxKeys: number;
  // Callers and limits (docs/api.md#caller-keys, docs/api.md#rate-limits, docs/api.md#overload-and-input-depth): src/http/caller-auth.ts, rate-limits.ts, overload.ts.
  /** CALLER_API_KEYS; undefined = no caller authentication. */
  readonly callerKeys: readonly CallerKeyEntry[] | undefined;
  /** Chats per minute per session (`orgId`, `propertyId`, `session_id`); 0 = off. */
  readonly rateLimitSessionPerMin: number;
  /** Chats per minute per organisation; 0 = off. */
  readonly rateLimitOrgPerMin: number;
  /** docs/api.md#overload-and-input-depth: chats are shed while the event loop's delay is over this many ms; 0 = off. */
  readonly overloadMaxEventLoopDelayMs: number;
  /** DATA_DIR: the service's own durable files (the local handoff outbox, docs/operations.md#handoffs-and-dead-letters). */
  readonly dataDir: string;
  /** HANDOFF_MAX_AGE_S: a handoff is retried until this many seconds after it was written. */
  readonly handoffMaxAgeSeconds: number;
  /** HANDOFF_LOCK_MS: how long a delivering instance holds a handoff; a dead one's is taken over after it. */
  readonly handoffLockMs: number;
  /** ADMIN_API_KEY: bearer key of the /admin routes, which are not served when unset. Never logged. */
  readonly adminApiKey: string | undefined;
  /** PLAYGROUND: serve the chat page at /playground (default: only in `local`). */
  readonly playground: boolean;
}
