/**
 * What tracing costs: the service is started with tracing off (DISABLE_TRACING=true), on (every span
 * built and handed to a batch processor with a no-op exporter) and on with OTLP/HTTP export to a
 * loopback collector, each in its own process, against loopback stubs (another process) that answer
 * at once; autocannon (this process) drives each for a bounded time. Modes alternate over rounds so
 * drift on a shared machine hits them alike. Prints req/s, p50/p99 latency, the service process's
 * CPU µs per request, and the overhead against tracing off.
 *
 *   npx node scripts/bench-tracing.ts [--seconds 8] [--connections 10] [--rounds 2]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { ExportResultCode } from '@opentelemetry/core';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import pino from 'pino';
import { chatRequest, engineReply } from '../test/helpers/fixtures.ts';

const { values: args } = parseArgs({
  options: {
    role: { type: 'string', default: 'driver' },
    mode: { type: 'string', default: 'off' },
    stub: { type: 'string', default: '' },
    seconds: { type: 'string', default: '8' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
  },
});

type Mode = 'off' | 'on' | 'otlp';
const MODES: readonly Mode[] = ['off', 'on', 'otlp'];

/** Every downstream party (and an OTLP collector) on one loopback server, answering at once. */
async function runStubs(): Promise<void> {
  const engine = JSON.stringify(engineReply());
  const stored = JSON.stringify({
    data: { createServiceMessage: { id: '1000', conversationId: '1', role: 'ASSISTANT', content: 'x', createdAt: new Date().toISOString() } },
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const json = (status: number, body: string) => res.writeHead(status, { 'content-type': 'application/json' }).end(body);
      if (req.url === '/query') json(200, engine);
      else if (req.url === '/graphql') json(200, stored);
      else if (req.url === '/handoff') json(202, '{}');
      else json(200, '{}'); // /v1/traces and anything else
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

/** The service as src/compose.ts builds it, with one tracing mode. */
async function runService(mode: Mode, stub: string): Promise<void> {
  const { loadConfig } = await import('../src/config/load-config.ts');
  const { composeService } = await import('../src/compose.ts');
  const { createLogger } = await import('../src/telemetry/logger.ts');
  const config = loadConfig({
    ENVIRONMENT: 'qa',
    ...Object.fromEntries(['ENGINE_URL', 'TRANSLATE_URL', 'HANDOFF_URL', 'PROPERTY_API_URL'].map((v) => [v, stub])),
    GRAPHQL_URL: `${stub}/graphql`,
    GRAPHQL_AUTHORIZATION: 'bench',
    GRAPHQL_API_KEY: 'bench',
    DISABLE_TRACING: String(mode === 'off'),
    ...(mode === 'otlp' && { OTEL_EXPORTER_OTLP_ENDPOINT: stub }),
  });
  const noop: SpanExporter = { export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }), shutdown: async () => {} };
  // The one log line per request is written, as in production, to a sink that costs no disk.
  const logger = createLogger('info', pino.destination({ dest: '/dev/null', sync: false }));
  const { app } = await composeService(config, logger, { spanProcessors: mode === 'on' ? [new BatchSpanProcessor(noop)] : [] });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (msg) => {
    if (msg === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
  process.send?.({ url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` });
}

function start(extra: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(import.meta.filename, extra, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (msg) => resolve({ child, url: (msg as { url: string }).url }));
    child.once('exit', (code) => reject(new Error(`${extra.join(' ')} exited with ${code}`)));
  });
}

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (msg) => {
      const { user, system } = (msg as { cpu: NodeJS.CpuUsage }).cpu;
      resolve(user + system);
    });
    child.send('cpu');
  });
}

interface Result {
  rps: number;
  p50: number;
  p99: number;
  cpuPerRequest: number;
  errors: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<{
  requests: { average: number };
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

async function measure(mode: Mode, stub: string): Promise<Result> {
  const { child, url } = await start(['--role', 'service', '--mode', mode, '--stub', stub]);
  const load = {
    url: `${url}/chat_adapter`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(chatRequest()),
    connections: Number(args.connections),
  };
  try {
    await autocannon({ ...load, duration: 2 }); // warm-up: JIT, pools, caches
    const cpuBefore = await cpuOf(child);
    const r = await autocannon({ ...load, duration: Number(args.seconds) });
    const cpu = (await cpuOf(child)) - cpuBefore;
    return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpuPerRequest: cpu / Math.max(1, r['2xx']), errors: r.non2xx + r.errors + r.timeouts };
  } finally {
    child.kill();
  }
}

async function drive(): Promise<void> {
  const stubs = await start(['--role', 'stubs']);
  const results: Record<Mode, Result[]> = { off: [], on: [], otlp: [] };
  try {
    for (let round = 1; round <= Number(args.rounds); round++) {
      for (const mode of MODES) {
        const r = await measure(mode, stubs.url);
        results[mode].push(r);
        console.log(`round ${round} ${mode.padEnd(4)} ${r.rps.toFixed(0)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  ${r.cpuPerRequest.toFixed(0)} CPU µs/req  errors ${r.errors}`);
      }
    }
  } finally {
    stubs.child.kill();
  }
  const avg = (mode: Mode, key: keyof Result) => results[mode].reduce((s, r) => s + r[key], 0) / results[mode].length;
  console.log(`\n${args.seconds}s x ${args.rounds} rounds, ${args.connections} connections; averages:`);
  console.log('mode   req/s   p50 ms  p99 ms  CPU µs/req  throughput cost  CPU cost');
  for (const mode of MODES) {
    const cost = (1 - avg(mode, 'rps') / avg('off', 'rps')) * 100;
    const cpuCost = (avg(mode, 'cpuPerRequest') / avg('off', 'cpuPerRequest') - 1) * 100;
    console.log(
      `${mode.padEnd(5)} ${avg(mode, 'rps').toFixed(0).padStart(6)} ${avg(mode, 'p50').toFixed(1).padStart(8)} ${avg(mode, 'p99').toFixed(1).padStart(7)}` +
        ` ${avg(mode, 'cpuPerRequest').toFixed(0).padStart(11)} ${mode === 'off' ? '               -' : `${cost.toFixed(1).padStart(15)}%`}` +
        ` ${mode === 'off' ? '        -' : `${cpuCost.toFixed(1).padStart(8)}%`}`,
    );
  }
}

if (args.role === 'stubs') await runStubs();
else if (args.role === 'service') await runService(args.mode as Mode, args.stub);
else await drive();
