/**
 * What idempotency and session turns add per chat (CONTRACTS 6.2, 6.6): the whole app through
 * `app.inject` with fakes that answer at once (as bench-pipeline.ts), one chat at a time, for a
 * chat without a key, with a new key (claim + keep) and a replay, in process and, when a Redis URL
 * is given, in Redis (turn queue + claim round trips on loopback).
 *
 *   npx node scripts/bench-requests.ts [requests=3000] [redis://127.0.0.1:6379]
 */
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { createMemoryCache } from '../src/cache/memory-cache.ts';
import { createIdempotencyStore } from '../src/idempotency/create-idempotency-store.ts';
import type { Deps } from '../src/pipeline/ports.ts';
import { connectRedis } from '../src/shared-state/redis-connection.ts';
import { noRequestMetrics } from '../src/telemetry/request-metrics.ts';
import { createTracing } from '../src/telemetry/tracing.ts';
import { createSessionTurns } from '../src/turns/create-session-turns.ts';

const total = Number(process.argv[2] ?? 3_000);
const redisUrl = process.argv[3];

const reply = {
  response: 'Our office is open Monday to Friday, 9am to 6pm.', intent: 'office_hours', sub_intent: 'office_hours',
  retrieval_type: 'fixed' as const, orchestrator_level1_details: {}, orchestrator_level2_details: {}, keyword_cache: {},
  not_available: [], context: null, follow_up: 'Anything else?', memory: null, agent_handoff: null,
};
let nextId = 1;
const deps: Deps = {
  engine: { query: async () => reply },
  store: {
    createMessage: async (input) => ({ id: String(nextId++), conversationId: input.conversationId, role: input.role, content: input.content, createdAt: '' }),
    updateConversation: async (input) => ({ id: input.conversationId, contactName: null, contactPhone: null, contactEmail: null, lastIntent: null, agentHandoff: null, updatedAt: '' }),
  },
  handoff: { dispatch: () => {}, pending: 0, drain: async () => 0 },
  translator: { translate: async (text) => text },
  propertyApi: { units: async () => [], floorPlans: async () => [], tourSlots: async () => [], neighborhoodKeywords: async () => [], apiToken: async () => 't' },
  cache: createMemoryCache({ maxSessions: 10_000, ttlSeconds: 7200 }),
  clock: { now: () => Date.now() },
  logger: pino({ level: 'silent' }),
  settings: { defaultPhoneRegion: 'US', propertyTimeZone: 'UTC', cacheRetrieveThreshold: 0.98 },
  newId: () => crypto.randomUUID(),
};

const body = (n: number, i = n % 1000) => JSON.stringify({
  propertyId: '1234567890123456789', orgId: '9876543210987654321', conversation_id: '1111111111111111111',
  session_id: i.toString(16).padStart(32, '0'), graphql_api_key: 'caller-key_1', tourScheduleEnabled: true,
  message: `What are your office hours on Saturday? (${i % 7})`,
  history: [{ role: 'user', content: 'Hi there' }, { role: 'assistant', content: 'Hello! How can I help?' }],
});

type Mode = 'no key' | 'new key' | 'replay';

async function run(label: string, redis: ReturnType<typeof connectRedis> | undefined): Promise<void> {
  const tracing = createTracing({ disabled: true });
  const requestGuards = {
    idempotency: createIdempotencyStore({ redis, ttlSeconds: 600, requestTimeoutMs: 25_000 }),
    turns: createSessionTurns({ redis }),
    metrics: noRequestMetrics,
  };
  const app = buildApp({ deps, tracer: tracing.tracer, routePrefix: '', loggerInstance: pino({ level: 'silent' }), requestTimeoutMs: 25_000, requestGuards });
  await app.ready();
  const inject = (i: number, key: string | undefined) =>
    app.inject({ method: 'POST', url: '/chat_adapter', payload: body(i), headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'idempotency-key': key }) } });
  const run = `${Date.now()}`;
  for (let i = 0; i < 1_000; i++) await inject(i, i % 2 ? `warm-${run}-${i}` : undefined); // JIT, schemas
  for (const mode of ['no key', 'new key', 'replay'] as Mode[]) {
    const key = (i: number) => (mode === 'no key' ? undefined : mode === 'new key' ? `k-${run}-${i}` : `k-${run}-${i % 1000}`);
    if (mode === 'replay') for (let i = 0; i < 1000; i++) await inject(i, key(i));
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      const res = await inject(i, key(i));
      if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${res.body}`);
    }
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    console.log(`${label.padEnd(10)} ${mode.padEnd(8)}: ${((wall * 1000) / total).toFixed(0).padStart(5)} µs wall, ${((used.user + used.system) / total).toFixed(0).padStart(5)} µs CPU per chat`);
  }
  await app.close();
}

await run('in-process', undefined);
if (redisUrl !== undefined) {
  const redis = connectRedis(redisUrl);
  await once(redis, 'ready');
  await run('redis', redis);
  redis.disconnect();
}
