import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { isSupportedCountry } from 'libphonenumber-js';
import { readTracesSampler } from './sampler-config.ts';
import { ConfigFileSchema, ENVIRONMENTS, type Config, type ConfigFile, type Party } from './config.schema.ts';
import {
  ConfigError,
  checkUrl,
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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function readConfigFile(configDir: string, environment: string): ConfigFile {
  const path = resolve(configDir, `${environment}.json`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError('ENVIRONMENT', `cannot read ${path}: ${(err as Error).message}`);
  }
  const firstError = Value.Errors(ConfigFileSchema, parsed).First();
  if (firstError) throw new ConfigError('ENVIRONMENT', `${path}${firstError.path}: ${firstError.message}`);
  return parsed as ConfigFile;
}

function resolveUrls(env: Env, file: ConfigFile, local: boolean): Partial<Record<Party, string>> {
  const urls: Partial<Record<Party, string>> = {};
  for (const [party, { variable, fileKey }] of Object.entries(URL_VARIABLES) as [Party, (typeof URL_VARIABLES)[Party]][]) {
    const fromEnv = envOptionalString(env, variable);
    const value = fromEnv ?? (file[fileKey] as string | null | undefined) ?? undefined;
    if (value === undefined) {
      if (!local) throw new ConfigError(variable, `is required when ENVIRONMENT=${file.environment}`);
      continue;
    }
    urls[party] = checkUrl(variable, value);
  }
  return urls;
}

/** Reads and validates the whole configuration once; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env, configDir = resolve(import.meta.dirname, '../../config')): Config {
  const environment = envChoice(env, 'ENVIRONMENT', ENVIRONMENTS, 'local');
  const file = readConfigFile(configDir, environment);
  const local = environment === 'local';

  const graphqlAuthorization = envOptionalString(env, 'GRAPHQL_AUTHORIZATION');
  const graphqlApiKey = envOptionalString(env, 'GRAPHQL_API_KEY');
  if (!local && graphqlAuthorization === undefined) throw new ConfigError('GRAPHQL_AUTHORIZATION', `is required when ENVIRONMENT=${environment}`);
  if (!local && graphqlApiKey === undefined) throw new ConfigError('GRAPHQL_API_KEY', `is required when ENVIRONMENT=${environment}`);

  const defaultPhoneRegion = envString(env, 'DEFAULT_PHONE_REGION', 'US').toUpperCase();
  if (!isSupportedCountry(defaultPhoneRegion)) {
    throw new ConfigError('DEFAULT_PHONE_REGION', `must be an ISO 3166 region code such as US, got "${defaultPhoneRegion}"`);
  }

  const propertyTimeZone = envString(env, 'PROPERTY_TIME_ZONE', 'America/New_York');
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: propertyTimeZone });
  } catch {
    throw new ConfigError('PROPERTY_TIME_ZONE', `must be an IANA time zone such as America/Chicago, got "${propertyTimeZone}"`);
  }

  const routePrefix = envString(env, 'ROUTE_PREFIX', '').replace(/\/+$/, '');
  if (routePrefix !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(routePrefix)) {
    throw new ConfigError('ROUTE_PREFIX', 'must look like /segment or /a/b (letters, digits, . _ ~ -)');
  }

  const redisUrl = envOptionalString(env, 'REDIS_URL');
  const otlpEndpoint = envOptionalString(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const timeoutsMs = Object.fromEntries(
    Object.entries(TIMEOUT_VARIABLES).map(([party, { variable, fallback }]) => [party, envInteger(env, variable, fallback, 1, 600_000)]),
  ) as Record<Party, number>;

  return {
    port: envInteger(env, 'PORT', 6000, 0, 65_535),
    host: envString(env, 'HOST', '0.0.0.0'),
    environment,
    urls: resolveUrls(env, file, local),
    timeoutsMs,
    graphqlAuthorization,
    graphqlApiKey,
    disableTracing: envBoolean(env, 'DISABLE_TRACING', false),
    tracesSampler: readTracesSampler(env),
    recordMessageText: envBoolean(env, 'TRACE_MESSAGE_TEXT', false),
    otlpEndpoint: otlpEndpoint === undefined ? undefined : checkUrl('OTEL_EXPORTER_OTLP_ENDPOINT', otlpEndpoint),
    redisUrl: redisUrl === undefined ? undefined : checkUrl('REDIS_URL', redisUrl, ['redis:', 'rediss:']),
    logLevel: envChoice(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    routePrefix,
    defaultPhoneRegion,
    propertyTimeZone,
    cacheTtlSeconds: envInteger(env, 'CACHE_TIMEOUT', 7200, 1, 30 * 86_400),
    cacheMaxSessions: envInteger(env, 'CACHE_MAX_SESSIONS', 20_000, 1, 10_000_000),
    cacheRetrieveThreshold: 0.98,
    localDataDir: resolve(envString(env, 'LOCAL_DATA_DIR', file.localDataDir ?? './data')),
    localStackBasePort: envInteger(env, 'LOCAL_STACK_BASE_PORT', 6100, 0, 65_530),
    shutdownGraceMs: envInteger(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    requestTimeoutMs: envInteger(env, 'REQUEST_TIMEOUT_MS', 25_000, 1, 600_000),
  };
}
