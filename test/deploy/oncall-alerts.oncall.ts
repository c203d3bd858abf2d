/**
 * The on-call test (`npm run test:oncall`, docs/operations.md#how-the-alerts-are-proven): each
 * failure an alert of deploy/prometheus/alerts.yml is about, caused for real, fires that alert in a
 * real Prometheus, and a quiet healthy instance fires none.
 *
 * Real parts only: the service as `npm start` runs it (one process per failure, `node
 * dist/src/server.js`, test/helpers/service-process.ts), its parties as loopback HTTP stubs, real
 * redis-servers, and Debian's Prometheus (test/helpers/prometheus-binaries.ts) scraping every
 * instance's METRICS_PORT each second and evaluating the rules each second. The rules are the
 * shipped ones time-compressed (test/helpers/compressed-alerts.ts): every range and `for:` divided
 * by 60 (minutes become seconds), the expressions, labels and annotations otherwise unchanged; the one
 * threshold that is itself an age (ChatAdapterHandoffBacklog's 300 s) is divided likewise (5 s).
 * Every other threshold is the shipped one: the slow engine takes more than 10 s, the stalled Redis
 * more than 100 ms, the lagging event loop more than 500 ms.
 *
 * Each instance is healthy for a while (traffic, no alert), then its failure starts, all at once:
 *   engine-errors    the engine answers 503                               HighErrorRatio, ErrorBudgetBurn
 *   stream-failures  the engine breaks off streamed answers mid-way       FailedStreams
 *   slow-engine      the engine starts answering after 11 s               SlowFirstText, EngineSlow
 *   redis-down       its Redis killed (SIGKILL)                           RedisFallback, LocalOutboxInUse,
 *                                                                        CacheErrors
 *   redis-stalled    its Redis stopped (SIGSTOP: connected, answering     RedisSlow
 *                    nothing)
 *   replica-lost     REDIS_WAIT_REPLICAS=1, its Redis's replica killed    RedisUnreplicatedWrites
 *   handoff-refused  the receiver answers 500, HANDOFF_MAX_AGE_S=15       HandoffBacklog, HandoffDeadLetters
 *   pool-wait        open-files limit 90, so two connections per party    PartyPoolWait
 *                    pool (docs/operations.md#open-files), and the engine
 *                    slowed to 3 s a call
 *   overloaded       CPU starvation: stopped (SIGSTOP) 700 ms of every    Shedding, EventLoopLag
 *                    second, as a CPU quota throttles a busy pod;
 *                    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS=10
 *   heap             --max-old-space-size=64, CACHE_MAX_BYTES and         HeapNearCeiling
 *                    IDEMPOTENCY_MAX_BYTES at 1 GiB (above its heap): its
 *                    session cache and kept answers filled, by chats of
 *                    the longest message, to ~90 % of the heap
 *   healthy          its own Redis, handoffs, streams, Idempotency-Keys   none firing ever, none even pending
 *                                                                        while the others fail
 * then one instance is killed (SIGKILL: TargetDown) and then every one (Absent).
 *
 * Not caused here (its promtool unit test in deploy/prometheus/alerts.test.yml still proves it):
 * ChatAdapterLogLinesDropped. Lines are dropped only once 8 MiB of them back up behind a stdout
 * pipe nobody reads, and a chat writes one line of about 640 bytes at any LOG_LEVEL (its `request
 * completed`: no message text is ever logged), so some 13,000 chats would have to be answered while
 * the pipe is blocked: a load this test machine, shared by the other instances, cannot carry within
 * the test's few minutes.
 *
 * Without Prometheus (none on PATH, and Debian's package cannot be fetched) the test fails with one
 * line saying what to install; it never skips.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { metricValue } from '../helpers/metric-value.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startTestReplica, type TestReplica } from '../helpers/redis-replica.ts';
import { spawnService, type ServiceProcess } from '../helpers/service-process.ts';
import { sendJson, type RecordedRequest } from '../helpers/stub-server.ts';
import { startStubs, stubPartiesEnv, type Stubs } from '../helpers/stubbed-service.ts';
import { partsOfType, postChat, streamEngineReply, type EngineScript } from '../http/stream-helpers.ts';
import { compressedShippedRules, TIME_COMPRESSION, type AlertRule } from '../helpers/compressed-alerts.ts';
import { freePort } from '../helpers/free-port.ts';
import { locatePrometheusProgram } from '../helpers/prometheus-binaries.ts';

const ENVIRONMENT = 'oncall';
/** Healthy traffic on every instance before any failure: longer than the shortest windows, so the rules see it. */
const HEALTHY_FOR_MS = 12_000;
/** The slowest alerts here fire within about 25 s of their failure; the rest is room for a loaded machine. */
const FIRING_WITHIN_MS = 120_000;
/** An engine this slow to its first event is over ChatAdapterEngineSlow's 10 s (and SlowFirstText's 3 s). */
const SLOW_ENGINE_MS = 11_000;
/** The overloaded instance is stopped this long of every second (a CPU quota's throttling), then runs RUNNING_MS. */
const STARVED_MS = 700;
const RUNNING_MS = 300;
/** The pool-wait instance's open-files limit: the service fits its pools under it, two connections each. */
const OPEN_FILES_LIMIT = 90;
/** Its engine then takes this long a call: chats arrive faster than two connections answer them. */
const POOL_ENGINE_MS = 3_000;
const MIB = 1024 * 1024;

const rules = compressedShippedRules();
const ruleOf = (alert: string): AlertRule => {
  const rule = rules.flatMap((g) => g.rules).find((r) => r.alert === alert);
  if (rule === undefined) throw new Error(`no rule ${alert} in deploy/prometheus/alerts.yml`);
  return rule;
};

// ---------------------------------------------------------------------------------------------
// The instances: one service process each, its own stubs, data directory and ports.

interface Outcomes {
  readonly counts: Map<string, number>;
  add(outcome: string): void;
  toString(): string;
}

function outcomes(): Outcomes {
  const counts = new Map<string, number>();
  return {
    counts,
    add: (outcome) => void counts.set(outcome, (counts.get(outcome) ?? 0) + 1),
    toString: () => [...counts].map(([k, v]) => `${k}: ${v}`).join(', '),
  };
}

interface Instance {
  readonly name: string;
  readonly stubs: Stubs;
  readonly process: ServiceProcess;
  /** The service's own address (chats). */
  readonly base: string;
  /** METRICS_PORT's address: what Prometheus scrapes, and the alerts' `instance` label. */
  readonly target: string;
  readonly dataDir: string;
  /** What the chats sent to it came back as, before and after its failure. */
  readonly seen: Outcomes;
  /** Seconds between scrapes (and the scrape's timeout). */
  readonly scrapeSeconds: number;
}

async function startInstance(name: string, env: Record<string, string>, options: { scrapeSeconds?: number; openFilesLimit?: number } = {}): Promise<Instance> {
  const scrapeSeconds = options.scrapeSeconds ?? 1;
  const stubs = await startStubs();
  const [port, metricsPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), `oncall-${name}-`));
  const process = spawnService({
    ...stubPartiesEnv(stubs),
    ENVIRONMENT: 'qa',
    HOST: '127.0.0.1',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Off unless the instance is about overload: on this shared machine any loop may lag now and then.
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  }, [], options.openFilesLimit === undefined ? {} : { openFilesLimit: options.openFilesLimit });
  return { name, stubs, process, base: `http://127.0.0.1:${port}`, target: `127.0.0.1:${metricsPort}`, dataDir, seen: outcomes(), scrapeSeconds };
}

async function untilReady(instance: Instance): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ready = await fetch(`${instance.base}/ready`).then((r) => r.ok, () => false);
    if (ready) return;
    if (instance.process.child.exitCode !== null) throw new Error(`${instance.name} exited at start-up:\n${instance.process.stderr()}${instance.process.stdout()}`);
    if (Date.now() > deadline) throw new Error(`${instance.name} not ready within 90 s:\n${instance.process.stdout().slice(-2000)}`);
    await sleep(200);
  }
}

const HANDOFF_REPLY = engineReply({ intent: 'contact', sub_intent: 'agent_hand_off', response: 'Someone from the team will call you.' });
const QUICK_STREAM: Omit<EngineScript, 'done'> = { deltas: ['Our office ', 'is open ', 'nine to five.'], gapMs: 5 };

/** The engine's answer as the service asked for it: an event stream for a streamed chat, JSON otherwise. */
function answer(req: RecordedRequest, res: ServerResponse, reply = engineReply(), extra: Partial<EngineScript> = {}): Promise<void> | void {
  if (!String(req.headers['accept'] ?? '').includes('text/event-stream')) return sendJson(res, 200, reply);
  const { response: _text, ...done } = reply;
  return streamEngineReply(res, { ...QUICK_STREAM, done, ...extra }, { deltaAt: [], doneAt: undefined }).catch(() => {});
}

/** A healthy engine: every `handoffEvery`-th answer asks for a person (a handoff), the others answer. */
function healthyEngine(instance: Instance, handoffEvery = 0): void {
  let calls = 0;
  instance.stubs.engine.handle((req, res) => {
    calls += 1;
    return answer(req, res, handoffEvery > 0 && calls % handoffEvery === 0 ? HANDOFF_REPLY : engineReply());
  });
}

// ---------------------------------------------------------------------------------------------
// Traffic: chats sent at a steady pace, never waited for one by one.

const JSON_TIMEOUT_MS = 30_000;

async function jsonChat(instance: Instance, headers: Record<string, string> = {}, body = chatRequest()): Promise<void> {
  const outcome = await fetch(`${instance.base}/chat_adapter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(JSON_TIMEOUT_MS),
  }).then(
    async (res) => {
      await res.arrayBuffer();
      return String(res.status);
    },
    (err: Error) => `failed (${err.name})`,
  );
  instance.seen.add(outcome);
}

async function streamedChat(instance: Instance): Promise<void> {
  const outcome = await postChat(instance.base, chatRequest()).then(
    (streamed) => (streamed.status !== 200 ? String(streamed.status) : partsOfType(streamed, 'error').length > 0 ? 'stream error part' : 'stream finished'),
    (err: Error) => `failed (${err.message})`,
  );
  instance.seen.add(outcome);
}

const keyed = () => ({ 'idempotency-key': `oncall-${crypto.randomUUID()}` });

interface Load {
  stop(): void;
}

/** Sends `send()` every `everyMs` until stopped (each in flight on its own: a slow chat never slows the pace). */
function steady(everyMs: number, send: () => Promise<void>): Load {
  let running = true;
  void (async () => {
    while (running) {
      void send().catch(() => {});
      await sleep(everyMs);
    }
  })();
  return { stop: () => void (running = false) };
}

// ---------------------------------------------------------------------------------------------
// Prometheus.

interface FiringAlert {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly state: 'pending' | 'firing';
  readonly activeAt: string;
}

class Prometheus {
  readonly api: string;
  readonly #child: ChildProcess;
  readonly #dir: string;
  private constructor(api: string, child: ChildProcess, dir: string) {
    this.api = api;
    this.#child = child;
    this.#dir = dir;
  }

  static async start(targets: readonly Instance[]): Promise<Prometheus> {
    const program = await locatePrometheusProgram('prometheus');
    const dir = mkdtempSync(join(tmpdir(), 'oncall-prometheus-'));
    // JSON is YAML: the rule file and the configuration as Prometheus reads them.
    writeFileSync(join(dir, 'alerts.yml'), JSON.stringify({ groups: rules }, null, 2));
    // One job per scrape interval, all named chat-adapter* as the rules' TargetDown and Absent expect.
    // Every instance is scraped each second within a 1 s timeout, the one whose Redis is stalled too:
    // a scrape waits for the shared outbox's figures at most OUTBOX_SCRAPE_BUDGET_MS (200 ms).
    const intervals = [...new Set(targets.map((t) => t.scrapeSeconds))];
    writeFileSync(
      join(dir, 'prometheus.yml'),
      JSON.stringify({
        global: { scrape_interval: '1s', evaluation_interval: '1s' },
        rule_files: [join(dir, 'alerts.yml')],
        scrape_configs: intervals.map((seconds) => ({
          job_name: seconds === 1 ? 'chat-adapter' : `chat-adapter-every-${seconds}s`,
          scrape_interval: `${seconds}s`,
          scrape_timeout: `${seconds}s`,
          static_configs: targets.filter((t) => t.scrapeSeconds === seconds).map((t) => ({ targets: [t.target], labels: { environment: ENVIRONMENT } })),
        })),
      }),
    );
    const port = await freePort();
    const child = spawn(
      program,
      [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const prometheus = new Prometheus(`http://127.0.0.1:${port}`, child, dir);
    const deadline = Date.now() + 30_000;
    while (!(await fetch(`${prometheus.api}/-/ready`).then((r) => r.ok, () => false))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`prometheus did not start:\n${stderr}`);
      await sleep(200);
    }
    return prometheus;
  }

  async query<T>(path: string): Promise<T> {
    const body = (await (await fetch(`${this.api}${path}`)).json()) as { status: string; data: T };
    if (body.status !== 'success') throw new Error(`${path}: ${JSON.stringify(body)}`);
    return body.data;
  }

  instant(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
    return this.query<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(`/api/v1/query?query=${encodeURIComponent(promql)}`).then((d) => d.result);
  }

  alerts(): Promise<FiringAlert[]> {
    return this.query<{ alerts: FiringAlert[] }>('/api/v1/alerts').then((d) => d.alerts);
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode === null) {
      const exited = once(this.#child, 'exit');
      this.#child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// The failures.

interface Expected {
  readonly alert: string;
  /** Labels the alert carries besides alertname, instance, environment and severity. */
  readonly labels?: Record<string, string>;
}

interface Scenario {
  readonly instance: Instance;
  readonly failure: string;
  readonly expected: readonly Expected[];
  /** Starts the failure (the instance has had healthy traffic until then). */
  induce(): Promise<void> | void;
}

let prometheus: Prometheus | undefined;
const instances: Instance[] = [];
const scenarios: Scenario[] = [];
const loads: Load[] = [];
const redises: TestRedis[] = [];
let replica: TestReplica | undefined;
let healthy: Instance;
let starving = false;
/** When the failures began (performance.now()), and when each alert was first seen firing. */
let failuresAt = 0;
let quietFrom = 0;
const firedAfter = new Map<string, number>();

/** The heap instance's own figures (its metrics port), read while its cache is filled. */
async function heapRatio(instance: Instance): Promise<number> {
  const text = await fetch(`http://${instance.target}/metrics`).then((r) => r.text(), () => '');
  const used = metricValue(text, 'nodejs_heap_size_used_bytes');
  const limit = metricValue(text, 'chat_adapter_heap_limit_bytes');
  return limit === 0 ? 0 : used / limit;
}

/**
 * Keeps the heap instance's heap at 88 % of its ceiling or a little above: chats with a message of
 * the longest length (4,000 emoji: what the session cache keeps of it, with the kept answer of its
 * Idempotency-Key, stays in the heap) while the heap is below, none above, so that it stays near its
 * ceiling without dying of it. At most 8 at once: under the client's concurrency ceiling (32).
 */
function fillHeap(instance: Instance): Load {
  const message = '😀'.repeat(4_000);
  let running = true;
  void (async () => {
    while (running) {
      const ratio = await heapRatio(instance);
      if (ratio > 0 && ratio < 0.88) {
        // Each chat in flight needs a little heap of its own: one at a time near the ceiling.
        const batch = ratio < 0.7 ? 8 : ratio < 0.8 ? 3 : 1;
        await Promise.all(Array.from({ length: batch }, () => jsonChat(instance, keyed(), chatRequest({ message }))));
      } else {
        await sleep(250);
      }
    }
  })();
  return { stop: () => void (running = false) };
}

/** CPU starvation: the process runs RUNNING_MS of every second, as under a CPU quota it exceeds. */
function starve(instance: Instance): void {
  const pid = instance.process.child.pid!;
  starving = true;
  void (async () => {
    while (starving && instance.process.child.exitCode === null) {
      process.kill(pid, 'SIGSTOP');
      await sleep(STARVED_MS);
      process.kill(pid, 'SIGCONT');
      await sleep(RUNNING_MS);
    }
  })();
}

function stopStarving(instance: Instance | undefined): void {
  starving = false;
  if (instance?.process.child.exitCode === null) instance.process.child.kill('SIGCONT');
}

const key = (alert: string, instance: string) => `${alert} ${instance}`;

beforeAll(async () => {
  // The first thing: without Prometheus, one line saying what to install, before anything starts.
  await locatePrometheusProgram('prometheus');

  const [healthyRedis, downRedis, stalledRedis, primary] = await Promise.all([startTestRedis(), startTestRedis(), startTestRedis(), startTestRedis()]);
  redises.push(healthyRedis, downRedis, stalledRedis, primary);
  replica = await startTestReplica(primary.port);

  const started = await Promise.all([
    startInstance('healthy', { REDIS_URL: healthyRedis.url }),
    startInstance('engine-errors', {}),
    startInstance('stream-failures', {}),
    startInstance('slow-engine', {}),
    startInstance('redis-down', { REDIS_URL: downRedis.url }),
    startInstance('redis-stalled', { REDIS_URL: stalledRedis.url }),
    startInstance('pool-wait', {}, { openFilesLimit: OPEN_FILES_LIMIT }),
    startInstance('replica-lost', { REDIS_URL: primary.url, REDIS_WAIT_REPLICAS: '1' }),
    startInstance('handoff-refused', { HANDOFF_MAX_AGE_S: '15' }),
    startInstance('overloaded', { OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '10' }),
    startInstance('heap', {
      NODE_OPTIONS: '--max-old-space-size=64 --max-semi-space-size=1',
      CACHE_MAX_BYTES: String(1024 * MIB),
      IDEMPOTENCY_MAX_BYTES: String(1024 * MIB),
    }),
  ]);
  instances.push(...started);
  await Promise.all(instances.map(untilReady));
  const byName = (name: string) => instances.find((i) => i.name === name)!;
  healthy = byName('healthy');

  const replicaOf = replica;
  scenarios.push(
    {
      instance: byName('engine-errors'),
      failure: 'the engine answers 503',
      expected: [{ alert: 'ChatAdapterHighErrorRatio' }, { alert: 'ChatAdapterErrorBudgetBurn' }],
      induce() {
        this.instance.stubs.engine.handle((_req, res) => sendJson(res, 503, { detail: 'engine down' }));
      },
    },
    {
      instance: byName('stream-failures'),
      failure: 'the engine breaks off streamed answers after two words',
      expected: [{ alert: 'ChatAdapterFailedStreams' }],
      induce() {
        this.instance.stubs.engine.handle((req, res) => answer(req, res, engineReply(), { failAfter: 2 }));
      },
    },
    {
      instance: byName('slow-engine'),
      failure: `the engine starts answering after ${SLOW_ENGINE_MS / 1000} s`,
      expected: [{ alert: 'ChatAdapterSlowFirstText' }, { alert: 'ChatAdapterEngineSlow' }],
      induce() {
        this.instance.stubs.engine.handle(async (req, res) => {
          await sleep(SLOW_ENGINE_MS, undefined, { ref: false });
          if (!res.destroyed) await answer(req, res);
        });
      },
    },
    {
      instance: byName('redis-down'),
      failure: 'its Redis is killed (SIGKILL)',
      expected: [{ alert: 'ChatAdapterRedisFallback' }, { alert: 'ChatAdapterLocalOutboxInUse' }, { alert: 'ChatAdapterCacheErrors' }],
      induce: () => downRedis.stop(),
    },
    {
      instance: byName('redis-stalled'),
      failure: 'its Redis is stopped (SIGSTOP): connected, answering nothing',
      expected: [{ alert: 'ChatAdapterRedisSlow' }],
      induce: () => stalledRedis.pause(),
    },
    {
      instance: byName('replica-lost'),
      failure: 'REDIS_WAIT_REPLICAS=1 and its Redis replica is killed',
      expected: [{ alert: 'ChatAdapterRedisUnreplicatedWrites' }],
      induce: () => replicaOf.stop(),
    },
    {
      instance: byName('handoff-refused'),
      failure: 'the handoff receiver answers 500 (HANDOFF_MAX_AGE_S=15)',
      expected: [
        { alert: 'ChatAdapterHandoffBacklog', labels: { store: 'local' } },
        { alert: 'ChatAdapterHandoffDeadLetters', labels: { store: 'local' } },
      ],
      induce() {
        this.instance.stubs.handoff.handle((_req, res) => sendJson(res, 500, { error: 'receiver broken' }));
      },
    },
    {
      instance: byName('pool-wait'),
      failure: `the engine takes ${POOL_ENGINE_MS / 1000} s a call, its pool two connections (open-files limit ${OPEN_FILES_LIMIT})`,
      expected: [{ alert: 'ChatAdapterPartyPoolWait', labels: { party: 'engine' } }],
      induce() {
        this.instance.stubs.engine.handle(async (req, res) => {
          await sleep(POOL_ENGINE_MS, undefined, { ref: false });
          if (!res.destroyed) await answer(req, res);
        });
      },
    },
    {
      instance: byName('overloaded'),
      failure: `CPU-starved: stopped ${STARVED_MS} ms of every second (OVERLOAD_MAX_EVENT_LOOP_DELAY_MS=10)`,
      expected: [{ alert: 'ChatAdapterShedding' }, { alert: 'ChatAdapterEventLoopLag' }],
      induce() {
        starve(this.instance);
      },
    },
    {
      instance: byName('heap'),
      failure: 'its session cache and kept answers hold ~90 % of a 64 MiB heap',
      expected: [{ alert: 'ChatAdapterHeapNearCeiling' }],
      induce() {
        loads.push(fillHeap(this.instance));
      },
    },
  );

  // Healthy traffic everywhere, each instance with what its failure will touch.
  healthyEngine(healthy, 3);
  loads.push(
    steady(700, () => jsonChat(healthy, keyed())),
    steady(1_500, () => streamedChat(healthy)),
    steady(500, () => jsonChat(byName('engine-errors'))),
    steady(500, () => streamedChat(byName('stream-failures'))),
    steady(700, () => streamedChat(byName('slow-engine'))),
    steady(500, () => jsonChat(byName('redis-down'), keyed())),
    steady(400, () => jsonChat(byName('redis-stalled'), keyed())),
    steady(500, () => jsonChat(byName('replica-lost'), keyed())),
    steady(1_000, () => jsonChat(byName('handoff-refused'))),
    steady(300, () => jsonChat(byName('overloaded'))),
    steady(800, () => jsonChat(byName('pool-wait'))),
    steady(1_000, () => jsonChat(byName('heap'))),
  );
  healthyEngine(byName('redis-down'), 2);
  healthyEngine(byName('handoff-refused'), 1);
  for (const name of ['engine-errors', 'stream-failures', 'slow-engine', 'redis-stalled', 'replica-lost', 'pool-wait', 'overloaded', 'heap']) healthyEngine(byName(name));

  prometheus = await Prometheus.start(instances);
  // Every instance scraped before the healthy period is counted.
  const deadline = Date.now() + 30_000;
  while ((await prometheus.instant(`up{job=~"chat-adapter.*"} == 1`)).length < instances.length) {
    if (Date.now() > deadline) throw new Error(`not every instance is scraped: ${JSON.stringify(await prometheus.query('/api/v1/targets'))}`);
    await sleep(250);
  }
}, 240_000);

afterAll(async () => {
  for (const load of loads) load.stop();
  stopStarving(instances.find((i) => i.name === 'overloaded'));
  for (const instance of instances) {
    if (instance.process.child.exitCode === null && instance.process.child.signalCode === null) instance.process.child.kill('SIGKILL');
  }
  await Promise.all(instances.map((i) => i.process.exited.catch(() => null)));
  await prometheus?.stop();
  await replica?.stop().catch(() => {});
  for (const redis of redises) {
    redis.resume();
    await redis.stop();
  }
  await Promise.all(instances.flatMap((i) => Object.values(i.stubs).map((s: { close(): Promise<void> }) => s.close())));
  for (const instance of instances) rmSync(instance.dataDir, { recursive: true, force: true });
  const lines = [...firedAfter].map(([k, s]) => `  ${k.padEnd(60)} ${s.toFixed(1)} s`);
  process.stdout.write(`oncall: time from each failure to its alert firing (rules compressed ${TIME_COMPRESSION}x)\n${lines.join('\n')}\n`);
});

describe('the shipped alerts, evaluated by a real Prometheus on real failures', () => {
  it('loads every rule of deploy/prometheus/alerts.yml, and nothing fires while every instance is healthy', async () => {
    const p = prometheus!;
    const loaded = await p.query<{ groups: { rules: { name: string; health: string }[] }[] }>('/api/v1/rules');
    expect(loaded.groups.flatMap((g) => g.rules.map((r) => r.name)).sort()).toEqual(rules.flatMap((g) => g.rules.map((r) => r.alert)).sort());
    await sleep(HEALTHY_FOR_MS);
    const bad = (await p.query<{ groups: { rules: { name: string; health: string; lastError?: string }[] }[] }>('/api/v1/rules')).groups
      .flatMap((g) => g.rules)
      .filter((r) => r.health !== 'ok');
    expect(bad.map((r) => `${r.name}: ${r.lastError}`)).toEqual([]);
    const firing = (await p.alerts()).filter((a) => a.state === 'firing');
    expect(firing.map((a) => `${a.labels['alertname']} on ${instances.find((i) => i.target === a.labels['instance'])?.name}`)).toEqual([]);
    // Every instance answered its healthy chats.
    for (const instance of instances) expect(instance.seen.counts.get('200') ?? instance.seen.counts.get('stream finished') ?? 0, `${instance.name}: ${instance.seen}`).toBeGreaterThan(0);
  }, 60_000);

  it('fires each failure\'s alert, with its instance and environment, and none for the healthy instance', async () => {
    const p = prometheus!;
    quietFrom = Date.now() / 1000;
    failuresAt = performance.now();
    for (const scenario of scenarios) await scenario.induce();
    const wanted = scenarios.flatMap((s) => s.expected.map((e) => ({ scenario: s, expected: e })));
    let alerts: FiringAlert[] = [];
    const matches = (a: FiringAlert, s: Scenario, e: Expected) =>
      a.state === 'firing' && a.labels['alertname'] === e.alert && a.labels['instance'] === s.instance.target && Object.entries(e.labels ?? {}).every(([k, v]) => a.labels[k] === v);
    const deadline = performance.now() + FIRING_WITHIN_MS;
    for (;;) {
      alerts = await p.alerts();
      for (const { scenario, expected } of wanted) {
        const k = key(expected.alert, scenario.instance.name);
        if (!firedAfter.has(k) && alerts.some((a) => matches(a, scenario, expected))) firedAfter.set(k, (performance.now() - failuresAt) / 1000);
      }
      if (wanted.every(({ scenario, expected }) => firedAfter.has(key(expected.alert, scenario.instance.name))) || performance.now() > deadline) break;
      await sleep(500);
    }
    const missing = wanted.filter(({ scenario, expected }) => !firedAfter.has(key(expected.alert, scenario.instance.name)));
    expect(
      missing.map(({ scenario, expected }) => {
        const state = alerts.filter((a) => a.labels['alertname'] === expected.alert && a.labels['instance'] === scenario.instance.target).map((a) => a.state);
        const child = scenario.instance.process.child;
        const exited = child.exitCode === null && child.signalCode === null ? '' : `; the process exited (${child.exitCode ?? child.signalCode}): ${scenario.instance.process.stderr().slice(-300)}`;
        return `${expected.alert} did not fire on ${scenario.instance.name} (${scenario.failure}; alert ${state.join(', ') || 'inactive'}; chats: ${scenario.instance.seen}${exited})`;
      }),
    ).toEqual([]);

    // Each as the shipped rule has it: severity, runbook, and the target's instance and environment.
    for (const { scenario, expected } of wanted) {
      const alert = alerts.find((a) => matches(a, scenario, expected));
      if (alert === undefined) continue; // fired earlier and resolved since: its first firing was seen
      const rule = ruleOf(expected.alert);
      expect(alert.labels).toMatchObject({ alertname: expected.alert, instance: scenario.instance.target, environment: ENVIRONMENT, ...rule.labels, ...expected.labels });
      expect(alert.annotations['runbook_url']).toBe(rule.annotations?.['runbook_url']);
      expect(alert.annotations['summary']).toContain(scenario.instance.target);
    }

    // The healthy instance, chatting all along, never had an alert even pending since the failures began, nor firing ever.
    const span = Math.ceil(Date.now() / 1000 - quietFrom) + 1;
    // An instance whose Redis stalls is still scraped each second in time: never taken for down.
    expect(await p.instant(`min_over_time(up{instance="${instances.find((i) => i.name === 'redis-stalled')!.target}"}[${span}s]) == 0`)).toEqual([]);
    expect(await p.instant(`max_over_time(ALERTS{instance="${healthy.target}"}[${span}s])`)).toEqual([]);
    expect(await p.instant(`max_over_time(ALERTS{instance="${healthy.target}", alertstate="firing"}[10m])`)).toEqual([]);
    expect(healthy.seen.counts.get('200'), `healthy: ${healthy.seen}`).toBeGreaterThan(10);
    expect([...healthy.seen.counts.keys()].filter((k) => k !== '200' && k !== 'stream finished'), `healthy: ${healthy.seen}`).toEqual([]);
  }, FIRING_WITHIN_MS + 30_000);

  it('fires ChatAdapterTargetDown for an instance killed with SIGKILL, and ChatAdapterAbsent once none is left', async () => {
    const p = prometheus!;
    for (const load of loads) load.stop();
    stopStarving(instances.find((i) => i.name === 'overloaded'));
    const victim = instances.find((i) => i.name === 'engine-errors')!;
    const killedAt = performance.now();
    victim.process.child.kill('SIGKILL');
    await victim.process.exited;
    const down = await waitForFiring(p, (a) => a.labels['alertname'] === 'ChatAdapterTargetDown' && a.labels['instance'] === victim.target, 30_000);
    firedAfter.set(key('ChatAdapterTargetDown', victim.name), (performance.now() - killedAt) / 1000);
    expect(down.labels).toMatchObject({ instance: victim.target, environment: ENVIRONMENT, job: 'chat-adapter', severity: 'page' });

    const allKilledAt = performance.now();
    for (const instance of instances) if (instance.process.child.exitCode === null && instance.process.child.signalCode === null) instance.process.child.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.process.exited));
    const absent = await waitForFiring(p, (a) => a.labels['alertname'] === 'ChatAdapterAbsent', 30_000);
    firedAfter.set(key('ChatAdapterAbsent', '(every instance)'), (performance.now() - allKilledAt) / 1000);
    expect(absent.labels).toMatchObject({ severity: 'page' });
    expect(absent.labels['instance']).toBeUndefined();
  }, 90_000);
});

async function waitForFiring(p: Prometheus, match: (a: FiringAlert) => boolean, timeoutMs: number): Promise<FiringAlert> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const found = (await p.alerts()).find((a) => a.state === 'firing' && match(a));
    if (found !== undefined) return found;
    if (performance.now() > deadline) throw new Error(`no such alert fired within ${timeoutMs / 1000} s: ${JSON.stringify(await p.alerts())}`);
    await sleep(500);
  }
}
