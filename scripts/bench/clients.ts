/**
 * `npm run bench:clients`: what the service's party clients cost per call against the same call
 * made with bare undici, in this process, over loopback to the benchmark's stubs (their own
 * process). The engine call and the GraphQL mutation are three of a chat's four HTTP exchanges, and
 * the part of a chat's CPU above the pass-through that a profile cannot show as one function.
 * Likewise a chat's two Redis scripts with REDIS_URL, through the service's turn queue (ioredis)
 * and on a bare socket, against a redis-server of their own (redis-calls.ts); and the concurrency
 * ceilings' admission and release, in process and on that Redis (ceiling-calls.ts), and a streamed
 * turn kept in the stream log for resumers nobody makes (stream-log-calls.ts).
 *
 *   npm run bench:clients -- [--calls 30000] [--rounds 3] [--connections 20] [--kinds ceilings,stream]
 *
 * Each call runs as in a chat: inside a trace (a sampled context with no exporter, the default),
 * with the chat's deadline, metrics on. CPU is this process's user + system time over the calls
 * (all threads: the GC's helpers included), the median over rounds; the kinds take turns.
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { ROOT_CONTEXT, context, trace } from '@opentelemetry/api';
import { Pool } from 'undici';
import { createEngineClient } from '../../src/clients/engine-client.ts';
import { createGraphqlClient } from '../../src/clients/graphql-client.ts';
import { createPartyPool } from '../../src/clients/party-pool.ts';
import { createMetrics } from '../../src/telemetry/metrics.ts';
import { createTracing } from '../../src/telemetry/tracing.ts';
import type { EngineRequest } from '../../schemas/engine.schema.ts';
import { startNode, startRedis } from './processes.ts';
import { ceilingKinds } from './ceiling-calls.ts';
import { redisKinds } from './redis-calls.ts';
import { streamLogKinds } from './stream-log-calls.ts';

const { values: args } = parseArgs({
  options: {
    calls: { type: 'string', default: '30000' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    /** Only the kinds whose name contains one of these (comma-separated). */
    kinds: { type: 'string' },
  },
});
const calls = Number(args.calls);
const rounds = Number(args.rounds);
const connections = Number(args.connections);

const ROOT = resolve(import.meta.dirname, '../..');
const stubs = await startNode({ name: 'stubs', script: resolve(ROOT, 'scripts/bench/stubs.ts'), cwd: ROOT, env: {} });
const redis = await startRedis();
const redisCalls = await redisKinds(redis.url, redis.port);
const ceilingCalls = await ceilingKinds(redis.url);
const streamLogCalls = await streamLogKinds(redis.url);

const tracing = createTracing({ disabled: false });
const telemetry = { tracer: tracing.tracer, metrics: createMetrics({ processMetrics: false }) };
const engine = createEngineClient({ party: 'engine', baseUrl: stubs.url, timeoutMs: 10_000, dispatcher: createPartyPool(stubs.url), telemetry });
const store = createGraphqlClient({
  url: `${stubs.url}/graphql`,
  timeoutMs: 10_000,
  dispatcher: createPartyPool(stubs.url),
  authorization: 'bench-authorization',
  apiKey: 'bench-api-key',
  telemetry,
});
const bare = new Pool(stubs.url, { connections: 128 });

const engineRequest: EngineRequest = {
  message: 'How much is the security deposit?',
  propertyId: '1234567890123456789',
  orgId: '9876543210987654321',
  conversation_id: '1111111111111111111',
  session_id: 'd41d8cd98f00b204e9800998ecf8427e',
  tourScheduleEnabled: true,
  history: [],
  spanish_support_enabled: false,
  spanish_toggle: false,
  is_first_entry: true,
  language: 'en',
};
const message = { conversationId: '1111111111111111111', propertyId: '1234567890123456789', orgId: '9876543210987654321', sessionId: 'd41d8cd98f00b204e9800998ecf8427e', role: 'USER' as const, content: 'How much is the security deposit?', traceId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', clientMessageKey: 'bench:question' };
const CREATE_MESSAGE = 'mutation CreateServiceMessage($input: CreateServiceMessageInput!) { createServiceMessage(input: $input) { id conversationId role content createdAt } }';

async function bareJson(path: string, body: unknown, headers: Record<string, string>): Promise<unknown> {
  const res = await bare.request({ method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return JSON.parse(await res.body.text()) as unknown;
}

const allKinds: Record<string, () => Promise<unknown>> = {
  'engine, bare undici': () => bareJson('/query', engineRequest, {}),
  'engine, the service client': () => engine.query(engineRequest, performance.now() + 20_000),
  'GraphQL, bare undici': () =>
    bareJson('/graphql', { query: CREATE_MESSAGE, variables: { input: message } }, { authorization: 'bench-authorization', 'x-api-key': 'bench-api-key', 'x-graphql-api-key': 'bench' }),
  'GraphQL, the service client': () => store.createMessage(message, 'bench', performance.now() + 20_000),
  ...redisCalls.kinds,
  ...ceilingCalls.kinds,
  ...streamLogCalls.kinds,
};
const wanted = args.kinds?.split(',');
const kinds = Object.fromEntries(Object.entries(allKinds).filter(([name]) => wanted === undefined || wanted.some((w) => name.includes(w))));

// A chat's calls run under its SERVER span: here a sampled one that records nothing (no exporter).
const chatContext = trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext({ traceId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', spanId: '1122334455667788', traceFlags: 1 }));

async function load(call: () => Promise<unknown>, n: number): Promise<void> {
  let started = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (started++ < n) await context.with(chatContext, call);
    }),
  );
}

const figures = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const [name, call] of Object.entries(kinds)) {
    await load(call, calls / 2);
    const before = process.cpuUsage();
    await load(call, calls);
    // Work a call leaves behind without being waited for (the ceilings' releases) is counted too.
    await ceilingCalls.settled();
    const used = process.cpuUsage(before);
    const perCall = (used.user + used.system) / calls;
    figures.set(name, [...(figures.get(name) ?? []), perCall]);
    console.log(`round ${round + 1}  ${name.padEnd(31)} ${perCall.toFixed(1)} µs per call`);
  }
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`\nmedians over ${rounds} rounds of ${calls} calls, ${connections} at a time (CPU of this process per call)`);
for (const [name, values] of figures) console.log(`${name.padEnd(31)} ${median(values).toFixed(1)} µs`);

await Promise.all([bare.close(), redisCalls.close(), ceilingCalls.close(), streamLogCalls.close(), tracing.shutdown(), stubs.stop()]);
await redis.stop();
process.exit(0);
