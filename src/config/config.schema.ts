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
  /** CONTRACTS 6.1: every chat is answered within this many ms. */
  readonly requestTimeoutMs: number;
}
