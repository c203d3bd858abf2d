import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError, type Env } from '../../src/config/env-parsers.ts';
import { loadConfig } from '../../src/config/load-config.ts';

/** The project's real per-environment files. */
const CONFIG_DIR = resolve(import.meta.dirname, '../../config');

const SECRETS = { GRAPHQL_AUTHORIZATION: 'Bearer test-authorization', GRAPHQL_API_KEY: 'test-api-key' };

function load(env: Env) {
  return loadConfig(env, CONFIG_DIR);
}

/** The InvalidConfigError that loading `env` stops with. */
function failure(env: Env): InvalidConfigError {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidConfigError);
    return err as InvalidConfigError;
  }
  throw new Error('expected loadConfig to throw');
}

/** The variables named by the problems loading `env` stops with, in the order they were found. */
const badVariables = (env: Env): string[] => failure(env).problems.map((problem) => problem.variable);

describe('loadConfig: defaults (docs/configuration.md)', () => {
  it('with an empty environment gives the documented defaults', () => {
    const config = load({});
    expect(config.port).toBe(6000);
    // local: loopback only (an unauthenticated chat endpoint is not put on the network by default).
    expect(config.host).toBe('127.0.0.1');
    expect(config.environment).toBe('local');
    expect(config.timeoutsMs).toEqual({ engine: 30_000, graphql: 5_000, translate: 5_000, handoff: 5_000, propertyApi: 3_000 });
    expect(config.defaultPhoneRegion).toBe('US');
    expect(config.disableTracing).toBe(false);
    expect(config.telemetryFastPaths).toBe(true);
    expect(config.tracesSampler).toEqual({ name: 'parentbased_always_on', ratio: 1 });
    expect(config.logLevel).toBe('info');
    expect(config.routePrefix).toBe('');
    expect(config.redis).toBeUndefined();
    expect(config.otlpEndpoint).toBeUndefined();
    expect(config.graphqlAuthorization).toBeUndefined();
    expect(config.graphqlApiKey).toBeUndefined();
  });

  it('reads each override', () => {
    const config = load({
      PORT: '7100',
      HOST: '127.0.0.1',
      DISABLE_TRACING: 'true',
      TELEMETRY_FAST_PATHS: 'false',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      LOG_LEVEL: 'warn',
      ROUTE_PREFIX: '/chat/v1/',
      DEFAULT_PHONE_REGION: 'gb',
      REDIS_URL: 'redis://127.0.0.1:6390',
      ENGINE_TIMEOUT_MS: '1234',
      PROPERTY_API_TIMEOUT_MS: '250',
    });
    expect(config.port).toBe(7100);
    expect(config.host).toBe('127.0.0.1');
    expect(config.disableTracing).toBe(true);
    expect(config.telemetryFastPaths).toBe(false);
    expect(config.logLevel).toBe('warn');
    expect(config.tracesSampler).toEqual({ name: 'parentbased_traceidratio', ratio: 0.25 });
    expect(config.routePrefix).toBe('/chat/v1');
    expect(config.defaultPhoneRegion).toBe('GB');
    expect(config.redis).toMatchObject({ kind: 'single', url: 'redis://127.0.0.1:6390', wait: { replicas: 0 } });
    expect(config.timeoutsMs.engine).toBe(1234);
    expect(config.timeoutsMs.propertyApi).toBe(250);
    expect(config.timeoutsMs.graphql).toBe(5_000);
  });
});

describe('loadConfig: HOST', () => {
  it('listens on every interface outside local, on loopback in local, and HOST overrides both', () => {
    expect(load({ ENVIRONMENT: 'qa', ...SECRETS }).host).toBe('0.0.0.0');
    expect(load({ ENVIRONMENT: 'prod', ...SECRETS, HANDOFF_UNSIGNED: 'true' }).host).toBe('0.0.0.0');
    expect(load({ ENVIRONMENT: 'local' }).host).toBe('127.0.0.1');
    expect(load({ ENVIRONMENT: 'local', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(load({ ENVIRONMENT: 'staging', ...SECRETS, HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });
});

describe('loadConfig: downstream addresses', () => {
  it('takes the addresses from the selected environment file', () => {
    const config = load({ ENVIRONMENT: 'qa', ...SECRETS });
    expect(config.environment).toBe('qa');
    expect(config.urls.engine).toBe('https://engine.qa.internal.example');
    expect(config.urls.graphql).toBe('https://graphql.qa.internal.example/graphql');
  });

  it('lets an environment variable override one address and keeps the file for the others', () => {
    const config = load({ ENVIRONMENT: 'staging', ...SECRETS, ENGINE_URL: 'http://127.0.0.1:9100' });
    expect(config.urls.engine).toBe('http://127.0.0.1:9100');
    expect(config.urls.translate).toBe('https://translate.staging.internal.example');
    expect(config.urls.propertyApi).toBe('https://property-api.staging.internal.example');
  });

  it('in local, leaves unset addresses to the embedded stack but accepts an override', () => {
    const config = load({ GRAPHQL_URL: 'http://127.0.0.1:9200/graphql' });
    expect(config.urls.graphql).toBe('http://127.0.0.1:9200/graphql');
    expect(config.urls.engine).toBeUndefined();
  });
});

describe('loadConfig: a bad value stops with an InvalidConfigError naming the variable', () => {
  it.each<[string, Env]>([
    ['ENVIRONMENT', { ENVIRONMENT: 'production' }],
    ['ENGINE_URL', { ENGINE_URL: 'not a url' }],
    ['TRANSLATE_URL', { TRANSLATE_URL: 'ftp://translate.example' }],
    ['DISABLE_TRACING', { DISABLE_TRACING: 'maybe' }],
    ['TELEMETRY_FAST_PATHS', { TELEMETRY_FAST_PATHS: 'no' }],
    ['PORT', { PORT: 'six thousand' }],
    ['PORT', { PORT: '65536' }],
    ['PORT', { PORT: '-1' }],
    ['ENGINE_TIMEOUT_MS', { ENGINE_TIMEOUT_MS: '0' }],
    ['GRAPHQL_TIMEOUT_MS', { GRAPHQL_TIMEOUT_MS: '2.5' }],
    ['HANDOFF_TIMEOUT_MS', { HANDOFF_TIMEOUT_MS: 'soon' }],
    ['DEFAULT_PHONE_REGION', { DEFAULT_PHONE_REGION: 'XX' }],
    ['DEFAULT_PHONE_REGION', { DEFAULT_PHONE_REGION: 'USA' }],
    ['REDIS_URL', { REDIS_URL: 'http://127.0.0.1:6379' }],
    ['REDIS_URL', { REDIS_URL: 'localhost:6379' }],
    ['ROUTE_PREFIX', { ROUTE_PREFIX: 'api' }],
    ['ROUTE_PREFIX', { ROUTE_PREFIX: '/a b' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['PROPERTY_TIME_ZONE', { PROPERTY_TIME_ZONE: 'Mars/Olympus_Mons' }],
    ['OTEL_TRACES_SAMPLER', { OTEL_TRACES_SAMPLER: 'sometimes' }],
    ['OTEL_TRACES_SAMPLER_ARG', { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }],
    ['OTEL_TRACES_SAMPLER_ARG', { OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: 'half' }],
  ])('%s (%j)', (variable, env) => {
    const err = failure(env);
    expect(err.problems.map((problem) => problem.variable)).toEqual([variable]);
    expect(err.message).toContain(variable);
  });

  it.each(['qa', 'staging', 'prod'])('%s requires GRAPHQL_AUTHORIZATION and GRAPHQL_API_KEY', (environment) => {
    // (prod's own requirement, a handoff signing secret or HANDOFF_UNSIGNED, is met here: see below.)
    const base = { ENVIRONMENT: environment, HANDOFF_UNSIGNED: 'true' };
    expect(badVariables({ ...base, GRAPHQL_API_KEY: 'k' })).toEqual(['GRAPHQL_AUTHORIZATION']);
    expect(badVariables({ ...base, GRAPHQL_AUTHORIZATION: 'a' })).toEqual(['GRAPHQL_API_KEY']);
    expect(badVariables(base)).toEqual(['GRAPHQL_AUTHORIZATION', 'GRAPHQL_API_KEY']);
    expect(load({ ...base, ...SECRETS }).environment).toBe(environment);
  });

  it('prod does not start without HANDOFF_SIGNING_SECRET unless HANDOFF_UNSIGNED=true', () => {
    const err = failure({ ENVIRONMENT: 'prod', ...SECRETS });
    expect(err.problems.map((problem) => problem.variable)).toEqual(['HANDOFF_SIGNING_SECRET']);
    expect(err.message).toContain('HANDOFF_UNSIGNED=true');
    expect(load({ ENVIRONMENT: 'prod', ...SECRETS, HANDOFF_UNSIGNED: 'true' }).handoffUnsigned).toBe(true);
    // Other environments may deliver unsigned without saying so.
    expect(load({ ENVIRONMENT: 'staging', ...SECRETS }).handoffUnsigned).toBe(false);
    expect(badVariables({ ENVIRONMENT: 'prod', ...SECRETS, HANDOFF_UNSIGNED: 'yes' })).toContain('HANDOFF_UNSIGNED');
  });

  it('fair shares: ceilings on by default, each can be turned off, the pool wait share is a percentage', () => {
    expect(load({}).fairShares).toEqual({ perClient: 32, perOrg: 64, poolWaitShare: 0.2 });
    expect(load({ CONCURRENCY_PER_CLIENT: '0', CONCURRENCY_PER_ORG: '0', PARTY_POOL_WAIT_PERCENT: '50' }).fairShares).toEqual({ perClient: 0, perOrg: 0, poolWaitShare: 0.5 });
    expect(badVariables({ PARTY_POOL_WAIT_PERCENT: '0' })).toEqual(['PARTY_POOL_WAIT_PERCENT']);
    expect(badVariables({ CONCURRENCY_PER_CLIENT: '-1' })).toEqual(['CONCURRENCY_PER_CLIENT']);
  });

  it('METRICS_PORT is optional and must differ from PORT', () => {
    expect(load({}).metricsPort).toBeUndefined();
    expect(load({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(badVariables({ PORT: '7000', METRICS_PORT: '7000' })).toEqual(['METRICS_PORT']);
  });

  it('reports every bad variable, each with its problem, not only the first', () => {
    const err = failure({ ENVIRONMENT: 'qa', PORT: 'six thousand', DISABLE_TRACING: 'maybe', ENGINE_URL: 'not a url', LOG_LEVEL: 'verbose', ...SECRETS });
    expect(err.problems.map((problem) => problem.variable).sort()).toEqual(['DISABLE_TRACING', 'ENGINE_URL', 'LOG_LEVEL', 'PORT']);
    expect(err.message).toBe(err.problems.map((problem) => problem.message).join('; '));
    expect(err.message).toContain('DISABLE_TRACING: must be "true" or "false", got "maybe"');
  });

  it('with a bad ENVIRONMENT still checks the variables that do not depend on it', () => {
    expect(badVariables({ ENVIRONMENT: 'production', CACHE_TIMEOUT: '0' })).toEqual(['ENVIRONMENT', 'CACHE_TIMEOUT']);
  });

  it('local needs neither secret', () => {
    expect(() => load({ ENVIRONMENT: 'local' })).not.toThrow();
  });

  it.each<[string, string]>([
    ['ENGINE_URL', 'https://svc-user:Sup3rS3cret@'],
    ['GRAPHQL_URL', 'gopher://svc-user:Sup3rS3cret@graphql.example'],
    ['REDIS_URL', 'http://svc-user:Sup3rS3cret@redis.example:6379'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'ftp://svc-user:Sup3rS3cret@collector.example'],
  ])('never echoes a URL with credentials (%s)', (variable, value) => {
    const err = failure({ [variable]: value });
    expect(err.problems.map((problem) => problem.variable)).toEqual([variable]);
    expect(err.message).not.toContain('Sup3rS3cret');
    expect(err.message).not.toContain('svc-user');
  });
});

describe('loadConfig: the chat deadline (docs/api.md#deadline)', () => {
  it('is 25 s by default and can be set', () => {
    expect(load({}).requestTimeoutMs).toBe(25_000);
    expect(load({ REQUEST_TIMEOUT_MS: '8000' }).requestTimeoutMs).toBe(8000);
  });

  it.each(['0', '2.5', 'soon'])('refuses REQUEST_TIMEOUT_MS=%s', (value) => {
    expect(badVariables({ REQUEST_TIMEOUT_MS: value })).toEqual(['REQUEST_TIMEOUT_MS']);
  });
});

describe('loadConfig: idempotent requests (docs/api.md#idempotency)', () => {
  it('keeps answers one day and at most 20,000 in process by default; both can be set', () => {
    expect(load({})).toMatchObject({ idempotencyTtlSeconds: 86_400, idempotencyMaxKeys: 20_000 });
    expect(load({ IDEMPOTENCY_TTL_S: '3600', IDEMPOTENCY_MAX_KEYS: '500' })).toMatchObject({ idempotencyTtlSeconds: 3600, idempotencyMaxKeys: 500 });
  });

  it.each<[string, Env]>([
    ['IDEMPOTENCY_TTL_S', { IDEMPOTENCY_TTL_S: '0' }],
    ['IDEMPOTENCY_TTL_S', { IDEMPOTENCY_TTL_S: 'a day' }],
    ['IDEMPOTENCY_MAX_KEYS', { IDEMPOTENCY_MAX_KEYS: '-5' }],
  ])('refuses a bad %s (%j)', (variable, env) => {
    expect(failure(env).problems.map((p) => p.variable)).toEqual([variable]);
  });
});

describe('loadConfig: the handoff outbox (docs/operations.md#handoffs-and-dead-letters, docs/api.md#caller-keys)', () => {
  it('defaults to ./data, a day of retries, 30 s locks and no admin routes', () => {
    const config = load({});
    expect(config.dataDir).toBe(resolve('./data'));
    expect(config.handoffMaxAgeSeconds).toBe(86_400);
    expect(config.handoffLockMs).toBe(30_000);
    expect(config.adminApiKey).toBeUndefined();
  });

  it('reads each override', () => {
    const config = load({ DATA_DIR: '/var/lib/chat-adapter', HANDOFF_MAX_AGE_S: '3600', HANDOFF_LOCK_MS: '5000', ADMIN_API_KEY: 'a-long-enough-admin-key' });
    expect(config).toMatchObject({ dataDir: '/var/lib/chat-adapter', handoffMaxAgeSeconds: 3600, handoffLockMs: 5000, adminApiKey: 'a-long-enough-admin-key' });
  });

  it.each<[string, Env]>([
    ['HANDOFF_MAX_AGE_S', { HANDOFF_MAX_AGE_S: '0' }],
    ['HANDOFF_MAX_AGE_S', { HANDOFF_MAX_AGE_S: 'a day' }],
    ['HANDOFF_LOCK_MS', { HANDOFF_LOCK_MS: '10' }],
    ['ADMIN_API_KEY', { ADMIN_API_KEY: 'short-Key-42' }],
    ['ADMIN_API_KEY', { ADMIN_API_KEY: 'sixteen chars or more but Blanks-42' }],
  ])('%s (%j) stops start-up, without echoing a key', (variable, env) => {
    const err = failure(env);
    expect(err.problems.map((p) => p.variable)).toEqual([variable]);
    expect(err.message).not.toContain('short-Key-42');
    expect(err.message).not.toContain('Blanks-42');
  });
});
