/**
 * The service configurations the benchmark can measure against the same baseline. Each adds
 * environment variables (and perhaps request headers) to the service's plain `ENVIRONMENT=qa` run.
 * Variables the service does not know yet are ignored by it, so a variant can be run before the
 * feature it measures has landed (it then measures the service without it).
 */
export interface VariantContext {
  readonly stubUrl: string;
  /** Set when the variant asked for Redis. */
  readonly redisUrl?: string;
  /** Set when the variant asked for a Redis Cluster: its seed nodes, `host:port,...`. */
  readonly clusterNodes?: string;
}

export interface Variant {
  readonly name: string;
  readonly description: string;
  readonly needsRedis?: boolean;
  /** A Redis Cluster of 3 primaries and 3 replicas on this machine (bench/processes.ts). */
  readonly needsRedisCluster?: boolean;
  env(ctx: VariantContext): Record<string, string>;
  readonly headers?: Readonly<Record<string, string>>;
  /** A fresh `Idempotency-Key` header on every request. */
  readonly idempotencyKeys?: boolean;
  /** The chat bodies sent, in turn (the default: one ordinary question). */
  readonly messages?: readonly ChatMessage[];
}

export interface ChatMessage {
  readonly message: string;
  readonly spanishSupport?: boolean;
}

const MESSAGE_MAX_CHARS = 4000;
const fill = (unit: string): string => unit.repeat(Math.ceil(MESSAGE_MAX_CHARS / unit.length)).slice(0, MESSAGE_MAX_CHARS);

/**
 * The worst a caller may send in one message (docs/api.md, docs/api.md#limits): 4000 characters of the text that
 * made language detection, normalisation, contact extraction and formatting super-linear before,
 * with Spanish support on (so language detection runs). Each is a valid request.
 */
export const HOSTILE_MESSAGES: readonly ChatMessage[] = [
  fill('😀'),
  fill('a@'),
  fill('Supercalifragilisticexpialidocious'),
  fill('constructor '),
  fill('Thanks, Sarah \n'),
  fill('*a ['),
  fill('1,000.0'),
].map((message) => ({ message, spanishSupport: true }));

const CALLER_KEY = 'bench-caller-key-0123456789abcdef';

/**
 * The concurrency ceilings (docs/api.md#fair-shares) turned off as documented (0 = off): the
 * `-noceilings` variants are their neighbours without them, so that a pair measured in the same
 * rounds gives what the ceilings cost a chat (`--pairs redis:redis-noceilings`). An older checkout
 * without ceilings ignores the variables (`--compare`).
 */
const NO_CEILINGS = { CONCURRENCY_PER_CLIENT: '0', CONCURRENCY_PER_ORG: '0' } as const;

export const VARIANTS: readonly Variant[] = [
  { name: 'tracing', description: 'the default: trace ids made and propagated; no exporter, so no span is built', env: () => ({}) },
  { name: 'notrace', description: 'DISABLE_TRACING=true', env: () => ({ DISABLE_TRACING: 'true' }) },
  { name: 'nolog', description: 'LOG_LEVEL=warn: no line per request (tracing on)', env: () => ({ LOG_LEVEL: 'warn' }) },
  {
    name: 'otlp',
    description: 'tracing on, OTLP/HTTP export to a local sink',
    env: (ctx) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: ctx.stubUrl }),
  },
  {
    name: 'sampled',
    description: 'OTLP export, OTEL_TRACES_SAMPLER=parentbased_traceidratio, ratio 0.1',
    env: (ctx) => ({ OTEL_EXPORTER_OTLP_ENDPOINT: ctx.stubUrl, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
  },
  {
    name: 'redis',
    description: 'REDIS_URL: session cache (and whatever else uses it) on a real redis-server',
    needsRedis: true,
    env: (ctx) => ({ REDIS_URL: ctx.redisUrl ?? '' }),
  },
  {
    name: 'noceilings',
    description: 'the default (tracing) with the concurrency ceilings off: CONCURRENCY_PER_CLIENT=0, CONCURRENCY_PER_ORG=0',
    env: () => ({ ...NO_CEILINGS }),
  },
  {
    name: 'redis-noceilings',
    description: 'REDIS_URL with the concurrency ceilings off (no lease script before the chat, no ZREM after it)',
    needsRedis: true,
    env: (ctx) => ({ REDIS_URL: ctx.redisUrl ?? '', ...NO_CEILINGS }),
  },
  {
    name: 'redis-cluster',
    description: 'REDIS_CLUSTER_NODES: the same shared state on a Redis Cluster of 3 primaries and 3 replicas (WAIT for one replica on kept answers)',
    needsRedisCluster: true,
    env: (ctx) => ({ REDIS_CLUSTER_NODES: ctx.clusterNodes ?? '' }),
  },
  {
    name: 'redis-otlp',
    description: 'REDIS_URL and OTLP export of every span to a local sink: several instances as production runs them',
    needsRedis: true,
    env: (ctx) => ({ REDIS_URL: ctx.redisUrl ?? '', OTEL_EXPORTER_OTLP_ENDPOINT: ctx.stubUrl }),
  },
  {
    name: 'stream',
    description: 'Accept: text/event-stream: every chat answered as a UI message stream (the engine stub answers JSON)',
    env: () => ({}),
    headers: { accept: 'text/event-stream' },
  },
  {
    name: 'redis-stream',
    description: 'REDIS_URL and Accept: text/event-stream: every streamed reply kept in a Redis stream for resumers (nobody resumes)',
    needsRedis: true,
    env: (ctx) => ({ REDIS_URL: ctx.redisUrl ?? '' }),
    headers: { accept: 'text/event-stream' },
  },
  {
    name: 'stream-noceilings',
    description: 'Accept: text/event-stream with the concurrency ceilings off: a streamed chat as before the ceilings existed',
    env: () => ({ ...NO_CEILINGS }),
    headers: { accept: 'text/event-stream' },
  },
  {
    name: 'redis-stream-noceilings',
    description: 'REDIS_URL and Accept: text/event-stream (the reply kept in a Redis stream) with the concurrency ceilings off',
    needsRedis: true,
    env: (ctx) => ({ REDIS_URL: ctx.redisUrl ?? '', ...NO_CEILINGS }),
    headers: { accept: 'text/event-stream' },
  },
  {
    name: 'auth',
    description: 'CALLER_API_KEYS with a bearer key, and a new Idempotency-Key per request',
    env: () => ({ CALLER_API_KEYS: `bench:${CALLER_KEY}` }),
    headers: { authorization: `Bearer ${CALLER_KEY}` },
    idempotencyKeys: true,
  },
  {
    name: 'hostile',
    description: 'worst-case messages: 4000 emoji, "a@", long words, prototype names, signatures, markup, digits; Spanish support on',
    // As the default path runs (tracing on), so its CPU per chat compares with the `tracing` variant's.
    env: () => ({}),
    messages: HOSTILE_MESSAGES,
  },
];

export const DEFAULT_VARIANTS = ['tracing', 'notrace'];

export function pickVariants(names: readonly string[]): Variant[] {
  return names.map((name) => {
    const variant = VARIANTS.find((v) => v.name === name);
    if (variant === undefined) throw new Error(`unknown variant '${name}'; known: ${VARIANTS.map((v) => v.name).join(', ')}`);
    return variant;
  });
}

/** The plain service configuration every variant starts from: qa, the stubs' addresses, secrets set. */
export function serviceEnv(stubUrl: string): Record<string, string> {
  return {
    ENVIRONMENT: 'qa',
    ENGINE_URL: stubUrl,
    TRANSLATE_URL: stubUrl,
    HANDOFF_URL: stubUrl,
    PROPERTY_API_URL: stubUrl,
    GRAPHQL_URL: `${stubUrl}/graphql`,
    GRAPHQL_AUTHORIZATION: 'bench-authorization',
    GRAPHQL_API_KEY: 'bench-api-key',
  };
}
