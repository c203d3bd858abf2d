import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { isSupportedCountry } from 'libphonenumber-js';
import { isTimeZone } from '../reply/property-format.ts';
import { parseCallerKeys } from './caller-keys.ts';
import { readFairShares, readHandoffUnsigned, readMetricsPort } from './fair-shares-config.ts';
import { readRedisTarget } from './redis-target.ts';
import { parseWebhookSecrets } from './webhook-secrets.ts';
import { parseCorsOrigins } from './cors-origins.ts';
import { checkKeyKinds, parsePublishableKeys } from './publishable-keys.ts';
import { readResourceConfig } from './resource-config.ts';
import { readTracesSampler } from './sampler-config.ts';
import { ConfigFileSchema, type Config, type ConfigFile, type Party } from './config.schema.ts';
import { ENVIRONMENTS } from './environment.ts';
import {
  ConfigError,
  checkUrl,
  configProblems,
  envBoolean,
  envChoice,
  envInteger,
  envOptionalString,
  envString,
  type Env,
} from './env-parsers.ts';

const URL_VARIABLES: Readonly<Record<Party, { variable: string; fileKey: keyof ConfigFile }>> = {
  engine: { variable: 'ENGINE_URL', fileKey: 'engineUrl' },
  translate: { variable: 'TRANSLATE_URL', fileKey: 'translateUrl' },
  handoff: { variable: 'HANDOFF_URL', fileKey: 'handoffUrl' },
  graphql: { variable: 'GRAPHQL_URL', fileKey: 'graphqlUrl' },
  propertyApi: { variable: 'PROPERTY_API_URL', fileKey: 'propertyApiUrl' },
};

const TIMEOUT_VARIABLES: Readonly<Record<Party, { variable: string; fallback: number }>> = {
  engine: { variable: 'ENGINE_TIMEOUT_MS', fallback: 30_000 },
  graphql: { variable: 'GRAPHQL_TIMEOUT_MS', fallback: 5_000 },
  translate: { variable: 'TRANSLATE_TIMEOUT_MS', fallback: 5_000 },
  handoff: { variable: 'HANDOFF_TIMEOUT_MS', fallback: 5_000 },
  propertyApi: { variable: 'PROPERTY_API_TIMEOUT_MS', fallback: 3_000 },
};

const MIB = 1024 * 1024;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** What a config file may hold, in the words of the error that names anything else. */
const FILE_SETTINGS = Object.keys(ConfigFileSchema.properties);

/**
 * A setting a config file cannot hold, said with where it goes instead: a file holds the party
 * addresses of its environment (docs/configuration.md#where-per-environment-settings-live); every
 * other setting is an environment variable, set per environment by the deployment. The name is
 * read as data (never an object key) and suggested as the variable it probably means.
 */
function unknownSetting(parsed: unknown): string | undefined {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const name = Object.keys(parsed).find((key) => !FILE_SETTINGS.includes(key));
  if (name === undefined) return undefined;
  const variable = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}...` : name);
  const meant = /^[A-Z][A-Z0-9_]*$/.test(variable) ? ` (${variable}?)` : '';
  return `unknown setting ${shown}: a config file holds only ${FILE_SETTINGS.join(', ')}; set anything else as an environment variable${meant} per environment in the deployment (see docs/configuration.md, "Where per-environment settings live")`;
}

function readConfigFile(configDir: string, environment: string): ConfigFile {
  const path = resolve(configDir, `${environment}.json`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError('ENVIRONMENT', `cannot read ${path}: ${(err as Error).message}`);
  }
  const unknown = unknownSetting(parsed);
  if (unknown !== undefined) throw new ConfigError('ENVIRONMENT', `${path}: ${unknown}`);
  const firstError = Value.Errors(ConfigFileSchema, parsed).First();
  if (firstError) throw new ConfigError('ENVIRONMENT', `${path}${firstError.path}: ${firstError.message}`);
  return parsed as ConfigFile;
}

type Problems = ReturnType<typeof configProblems>;

/** Each address from its variable or the environment file; `file` is undefined when ENVIRONMENT is bad. */
function resolveUrls(env: Env, file: ConfigFile | undefined, local: boolean, problems: Problems): Partial<Record<Party, string>> {
  const urls: Partial<Record<Party, string>> = {};
  for (const [party, { variable, fileKey }] of Object.entries(URL_VARIABLES) as [Party, (typeof URL_VARIABLES)[Party]][]) {
    const value = envOptionalString(env, variable) ?? (file?.[fileKey] as string | null | undefined) ?? undefined;
    if (value === undefined) {
      if (file !== undefined && !local) problems.note(new ConfigError(variable, `is required when ENVIRONMENT=${file.environment}`));
      continue;
    }
    const url = problems.check(() => checkUrl(variable, value));
    if (url !== undefined) urls[party] = url;
  }
  return urls;
}

/** docs/api.md#caller-keys: the bearer key of the /admin routes. */
function adminApiKey(env: Env): string | undefined {
  const key = envOptionalString(env, 'ADMIN_API_KEY');
  // The key is never echoed: only what is wrong with it.
  if (key !== undefined && !/^[\x21-\x7e]{16,}$/.test(key)) {
    throw new ConfigError('ADMIN_API_KEY', 'must be at least 16 printable ASCII characters without spaces');
  }
  return key;
}

function phoneRegion(env: Env): string {
  const region = envString(env, 'DEFAULT_PHONE_REGION', 'US').toUpperCase();
  if (!isSupportedCountry(region)) throw new ConfigError('DEFAULT_PHONE_REGION', `must be an ISO 3166 region code such as US, got "${region}"`);
  return region;
}

function timeZone(env: Env): string {
  const zone = envString(env, 'PROPERTY_TIME_ZONE', 'America/New_York');
  if (!isTimeZone(zone)) throw new ConfigError('PROPERTY_TIME_ZONE', `must be an IANA time zone such as America/Chicago, got "${zone}"`);
  return zone;
}

/**
 * PLAYGROUND_PORT: a second listener for browsers, which refuse the API's port 6000 (a "bad port"
 * of the fetch standard). On by default in `local` only; a port the operator asked for must be
 * free, while the default gives way to a busy port.
 */
function playgroundListener(env: Env, local: boolean, port: number | undefined): Config['playgroundListener'] {
  const asked = envOptionalString(env, 'PLAYGROUND_PORT') !== undefined;
  const wanted = envInteger(env, 'PLAYGROUND_PORT', local ? 6080 : 0, 0, 65_535);
  // 0 is off; the API's own port needs no second listener.
  if (wanted === 0 || wanted === port) return undefined;
  return { port: wanted, required: asked };
}

function routePrefix(env: Env): string {
  const prefix = envString(env, 'ROUTE_PREFIX', '').replace(/\/+$/, '');
  if (prefix !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix)) {
    throw new ConfigError('ROUTE_PREFIX', 'must look like /segment or /a/b (letters, digits, . _ ~ -)');
  }
  return prefix;
}

/** Reads a secret: required in every environment but `local` (once the environment's file was read). */
function secretReader(env: Env, file: ConfigFile | undefined, local: boolean, problems: Problems): (variable: string) => string | undefined {
  return (variable) => {
    const value = envOptionalString(env, variable);
    if (value === undefined && file !== undefined && !local) {
      return problems.note(new ConfigError(variable, `is required when ENVIRONMENT=${file.environment}`));
    }
    return value;
  };
}

function optionalUrl(env: Env, check: Problems['check'], variable: string, protocols?: readonly string[]): string | undefined {
  const value = envOptionalString(env, variable);
  return value === undefined ? undefined : check(() => checkUrl(variable, value, protocols));
}

/** Each party's call timeout (ENGINE_TIMEOUT_MS, ...). */
function readTimeouts(env: Env, check: Problems['check']): Record<Party, number> {
  return Object.fromEntries(
    Object.entries(TIMEOUT_VARIABLES).map(([party, { variable, fallback }]) => [party, check(() => envInteger(env, variable, fallback, 1, 600_000))]),
  ) as Record<Party, number>;
}

/**
 * Reads and validates the whole configuration once. Every bad variable is noted, not only the
 * first: the InvalidConfigError thrown at the end lists each one with its problem.
 */
export function loadConfig(env: Env = process.env, configDir = resolve(import.meta.dirname, '../../config')): Config {
  const problems = configProblems();
  const { check } = problems;
  const environment = check(() => envChoice(env, 'ENVIRONMENT', ENVIRONMENTS, 'local'));
  // Without a readable environment file, the checks that need it (required addresses) are left out.
  const file = environment === undefined ? undefined : check(() => readConfigFile(configDir, environment));
  const local = environment === 'local';
  const secret = secretReader(env, file, local, problems);
  const timeoutsMs = readTimeouts(env, check);

  const port = check(() => envInteger(env, 'PORT', 6000, 0, 65_535));
  const config: Config = {
    port,
    // An unauthenticated chat endpoint is not put on the network by default: loopback in local.
    host: envString(env, 'HOST', local ? '127.0.0.1' : '0.0.0.0'),
    environment,
    urls: resolveUrls(env, file, local, problems),
    timeoutsMs,
    graphqlAuthorization: secret('GRAPHQL_AUTHORIZATION'),
    graphqlApiKey: secret('GRAPHQL_API_KEY'),
    disableTracing: check(() => envBoolean(env, 'DISABLE_TRACING', false)),
    telemetryFastPaths: check(() => envBoolean(env, 'TELEMETRY_FAST_PATHS', true)),
    tracesSampler: check(() => readTracesSampler(env)),
    resource: check(() => readResourceConfig(env)),
    recordMessageText: check(() => envBoolean(env, 'TRACE_MESSAGE_TEXT', false)),
    otlpEndpoint: optionalUrl(env, check, 'OTEL_EXPORTER_OTLP_ENDPOINT'),
    redis: check(() => readRedisTarget(env)),
    logLevel: check(() => envChoice(env, 'LOG_LEVEL', LOG_LEVELS, 'info')),
    routePrefix: check(() => routePrefix(env)),
    defaultPhoneRegion: check(() => phoneRegion(env)),
    propertyTimeZone: check(() => timeZone(env)),
    cacheTtlSeconds: check(() => envInteger(env, 'CACHE_TIMEOUT', 7200, 1, 30 * 86_400)),
    // Two bounds, whichever is reached first: sessions, and heap bytes (a session filled with
    // maximum-length emoji messages holds far more than an ordinary one's few KB).
    cacheMaxSessions: check(() => envInteger(env, 'CACHE_MAX_SESSIONS', 20_000, 1, 10_000_000)),
    cacheMaxBytes: check(() => envInteger(env, 'CACHE_MAX_BYTES', 64 * MIB, MIB, 4096 * MIB)),
    cacheRetrieveThreshold: 0.98,
    localDataDir: resolve(envString(env, 'LOCAL_DATA_DIR', file?.localDataDir ?? './data')),
    localStackBasePort: check(() => envInteger(env, 'LOCAL_STACK_BASE_PORT', 6100, 0, 65_530)),
    localEngineWordMs: check(() => envInteger(env, 'LOCAL_ENGINE_WORD_MS', 40, 0, 10_000)),
    shutdownGraceMs: check(() => envInteger(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000)),
    requestTimeoutMs: check(() => envInteger(env, 'REQUEST_TIMEOUT_MS', 25_000, 1, 600_000)),
    idempotencyTtlSeconds: check(() => envInteger(env, 'IDEMPOTENCY_TTL_S', 86_400, 1, 30 * 86_400)),
    idempotencyMaxKeys: check(() => envInteger(env, 'IDEMPOTENCY_MAX_KEYS', 20_000, 1, 10_000_000)),
    idempotencyMaxBytes: check(() => envInteger(env, 'IDEMPOTENCY_MAX_BYTES', 32 * MIB, MIB, 4096 * MIB)),
    callerKeys: check(() => parseCallerKeys(env)),
    publishableKeys: check(() => parsePublishableKeys(env)),
    corsOrigins: check(() => parseCorsOrigins(env, local)),
    rateLimitSessionPerMin: check(() => envInteger(env, 'RATE_LIMIT_SESSION_PER_MIN', 30, 0, 1_000_000)),
    rateLimitOrgPerMin: check(() => envInteger(env, 'RATE_LIMIT_ORG_PER_MIN', 0, 0, 100_000_000)),
    // Off by default: without CALLER_API_KEYS the client is the peer address, which behind a load
    // balancer is the balancer's, and with keys one caller is often a whole platform's backend.
    rateLimitClientPerMin: check(() => envInteger(env, 'RATE_LIMIT_CLIENT_PER_MIN', 0, 0, 100_000_000)),
    overloadMaxEventLoopDelayMs: check(() => envInteger(env, 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', 1_000, 0, 600_000)),
    dataDir: resolve(envString(env, 'DATA_DIR', './data')),
    handoffMaxAgeSeconds: check(() => envInteger(env, 'HANDOFF_MAX_AGE_S', 86_400, 1, 30 * 86_400)),
    handoffLockMs: check(() => envInteger(env, 'HANDOFF_LOCK_MS', 30_000, 500, 600_000)),
    adminApiKey: check(() => adminApiKey(env)),
    handoffSigningSecrets: check(() => parseWebhookSecrets(env)),
    handoffLegacySignature: check(() => envBoolean(env, 'HANDOFF_LEGACY_SIGNATURE', false)),
    playground: check(() => envBoolean(env, 'PLAYGROUND', local)),
    keepAliveTimeoutMs: check(() => envInteger(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 1_000, 3_600_000)),
    requestReceiveTimeoutMs: check(() => envInteger(env, 'REQUEST_RECEIVE_TIMEOUT_MS', 30_000, 100, 600_000)),
    maxConnections: check(() => envInteger(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000)),
    handoffDeadLetterTtlSeconds: check(() => envInteger(env, 'HANDOFF_DEAD_LETTER_TTL_S', 30 * 86_400, 3_600, 365 * 86_400)),
    playgroundListener: check(() => playgroundListener(env, local, port)),
    fairShares: check(() => readFairShares(env)),
    metricsPort: check(() => readMetricsPort(env, port)),
    handoffUnsigned: check(() => readHandoffUnsigned(env, environment, envOptionalString(env, 'HANDOFF_SIGNING_SECRET') !== undefined)),
  };
  check(() => checkKeyKinds(config.publishableKeys, config.callerKeys, config.adminApiKey));
  problems.done();
  return config;
}
