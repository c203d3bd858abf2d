/**
 * CPU cost of the service's own work per chat request: validation, every step, serialization.
 * Downstream parties are in-process fakes that answer at once, and requests go through
 * `app.inject`, so no socket or JSON work of another party is counted.
 *
 *   npx node scripts/bench-pipeline.ts [requests=20000]
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { createIdempotencyStore } from '../src/idempotency/create-idempotency-store.ts';
import { noRequestMetrics } from '../src/telemetry/request-metrics.ts';
import { createSessionTurns } from '../src/turns/create-session-turns.ts';
import { createMemoryCache } from '../src/cache/memory-cache.ts';
import type { Deps } from '../src/pipeline/ports.ts';
import { createTracing } from '../src/telemetry/tracing.ts';

const total = Number(process.argv[2] ?? 20_000);

const reply = {
  response: 'Our office is open **Monday to Friday**, 9am to 6pm. Weekend visits are by appointment.',
  intent: 'office_hours', sub_intent: 'office_hours', retrieval_type: 'fixed' as const,
  orchestrator_level1_details: {}, orchestrator_level2_details: {}, keyword_cache: {}, not_available: [],
  context: null, follow_up: 'Anything else I can help with?', memory: null, agent_handoff: null,
};
let nextId = 1;
const deps: Deps = {
  engine: { query: async () => reply },
  store: {
    createMessage: async (input) => ({ id: String(nextId++), conversationId: input.conversationId, role: input.role, content: input.content, createdAt: '' }),
    updateConversation: async (input) => ({ id: input.conversationId, contactName: null, contactPhone: null, contactEmail: null, lastIntent: null, agentHandoff: null, updatedAt: '' }),
  },
  handoff: { enqueue: async () => {} },
  translator: { translate: async (text) => text },
  propertyApi: {
    units: async () => [], floorPlans: async () => [], tourSlots: async () => [], neighborhoodKeywords: async () => [], apiToken: async () => 't',
  },
  cache: createMemoryCache({ maxSessions: 10_000, ttlSeconds: 7200 }),
  clock: { now: () => Date.now() },
  logger: pino({ level: 'silent' }),
  settings: { defaultPhoneRegion: 'US', propertyTimeZone: 'UTC', cacheRetrieveThreshold: 0.98 },
  newId: () => crypto.randomUUID(),
};

const body = JSON.stringify({
  propertyId: '1234567890123456789', orgId: '9876543210987654321', conversation_id: '1111111111111111111',
  session_id: 'd41d8cd98f00b204e9800998ecf8427e', graphql_api_key: 'caller-key_1', tourScheduleEnabled: true,
  message: 'What are your office hours on Saturday?',
  history: [{ role: 'user', content: 'Hi there' }, { role: 'assistant', content: 'Hello! How can I help?' }],
});

async function run(disableTracing: boolean): Promise<void> {
  const tracing = createTracing({ disabled: disableTracing });
  const app = buildApp({ deps, tracer: tracing.tracer, routePrefix: '', loggerInstance: pino({ level: 'silent' }), requestTimeoutMs: 25_000,
    requestGuards: { idempotency: createIdempotencyStore({ ttlSeconds: 60, requestTimeoutMs: 25_000 }), turns: createSessionTurns(), metrics: noRequestMetrics } });
  await app.ready();
  const request = { method: 'POST' as const, url: '/chat_adapter', payload: body, headers: { 'content-type': 'application/json' } };
  for (let i = 0; i < 2000; i++) await app.inject(request); // warm-up: JIT and schema compilation
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const res = await app.inject(request);
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${res.body}`);
  }
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / total;
  console.log(
    `tracing ${disableTracing ? 'off' : 'on '}: ${total} requests, ${(total / (wall / 1000)).toFixed(0)} req/s, ` +
      `${((wall * 1000) / total).toFixed(1)} µs wall and ${cpuUs.toFixed(1)} µs CPU per request (inject included)`,
  );
  await app.close();
  await tracing.shutdown();
}

await run(true);
await run(false);
