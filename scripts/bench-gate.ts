/**
 * What caller authentication and rate limiting add per chat (CONTRACTS 6.4, 6.5): the same chat
 * through `app.inject` with the gate off, with a caller key, with a key and both limits counted in
 * process, and with both limits counted in Redis (needs `redis-server` on the PATH). Downstream
 * parties are in-process fakes that answer at once; tracing is off, so only the gate differs.
 *
 *   npx node scripts/bench-gate.ts [requests=10000]
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { buildApp, type AppOptions } from '../src/app.ts';
import { createMemoryCache } from '../src/cache/memory-cache.ts';
import type { Deps } from '../src/pipeline/ports.ts';
import { connectRedis } from '../src/shared-state/redis-connection.ts';
import { createTracing } from '../src/telemetry/tracing.ts';

const total = Number(process.argv[2] ?? 10_000);
const KEY = 'bench-caller-key-0123456789abcdef';

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

const body = JSON.stringify({
  propertyId: '1234567890123456789', orgId: '9876543210987654321', conversation_id: '1111111111111111111',
  session_id: 'd41d8cd98f00b204e9800998ecf8427e', graphql_api_key: 'caller-key_1', tourScheduleEnabled: true,
  message: 'What are your office hours on Saturday?',
  history: [{ role: 'user', content: 'Hi there' }, { role: 'assistant', content: 'Hello! How can I help?' }],
});
const keys = [
  { name: 'web', key: KEY, orgIds: undefined },
  { name: 'partner', key: 'bench-partner-key-0123456789abcdef', orgIds: ['9876543210987654321'] },
  { name: 'mobile', key: 'bench-mobile-key-0123456789abcdef', orgIds: undefined },
];
// High enough never to refuse: every chat is counted against both limits, none is turned away.
const limits = { sessionPerMin: 100_000_000, orgPerMin: 100_000_000 };

async function run(label: string, gate: Partial<AppOptions>): Promise<number> {
  const tracing = createTracing({ disabled: true });
  const app = buildApp({ deps, tracer: tracing.tracer, routePrefix: '', loggerInstance: pino({ level: 'silent' }), requestTimeoutMs: 25_000, ...gate });
  await app.ready();
  const request = { method: 'POST' as const, url: '/chat_adapter', payload: body, headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` } };
  for (let i = 0; i < 2000; i++) await app.inject(request); // warm-up
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const res = await app.inject(request);
    if (res.statusCode !== 200) throw new Error(`${label}: status ${res.statusCode}: ${res.body}`);
  }
  const wallUs = ((performance.now() - started) * 1000) / total;
  const used = process.cpuUsage(cpu);
  const cpuUs = (used.user + used.system) / total;
  console.log(`${label.padEnd(38)} ${wallUs.toFixed(1).padStart(7)} µs wall ${cpuUs.toFixed(1).padStart(7)} µs CPU per chat`);
  await app.close();
  return wallUs;
}

const port = 16_000 + Math.floor(Math.random() * 1000);
const redisServer = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
await sleep(300);
const redis = connectRedis(`redis://127.0.0.1:${port}`);
await sleep(200);
try {
  for (let round = 1; round <= 2; round++) {
    console.log(`round ${round} (${total} chats each)`);
    await run('gate off', {});
    await run('caller key (3 entries)', { callerKeys: keys });
    await run('caller key + limits in process', { callerKeys: keys, rateLimits: limits });
    await run('caller key + session limit in Redis', { callerKeys: keys, rateLimits: { sessionPerMin: limits.sessionPerMin, redis } });
    await run('caller key + both limits in Redis', { callerKeys: keys, rateLimits: { ...limits, redis } });
  }
} finally {
  redis.disconnect();
  redisServer.kill('SIGKILL');
}
