/**
 * A real Prometheus (Debian's, see test/helpers/prometheus-binaries.ts) scraping the service every
 * second and evaluating deploy/prometheus/alerts.yml, as an on-call's would: it negotiates
 * OpenMetrics and stores the exemplars, every name the alerts and the dashboard query has series,
 * a streamed chat that failed is stored as a 503 of mode "stream", every rule evaluates without an
 * error, and a quiet healthy service fires no alert. (Each alert firing on its failure is proven by
 * the rule unit tests, promtool.test.ts, and on real failures by the on-call test,
 * oncall-alerts.oncall.ts, with the rules time-compressed: their windows are minutes long.)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { listenOnLoopback, postChat } from '../http/stream-helpers.ts';
import { freePort } from '../helpers/free-port.ts';
import { locatePrometheusProgram } from '../helpers/prometheus-binaries.ts';
import { startTracedService, type TracedService } from '../telemetry/traced-service.ts';

const root = resolve(import.meta.dirname, '../..');
/**
 * Names with no series here: Redis command latency needs REDIS_URL (this service has none), the
 * party pools' wait is recorded by other work of this release (see observability-names.test.ts).
 */
const NO_SERIES_HERE = new Set(['chat_adapter_redis_command_duration_seconds', 'chat_adapter_party_pool_wait_seconds', 'chat_adapter_redis_unreplicated_writes_total']);

let svc: TracedService;
let prometheus: ChildProcess;
let api: string;
let dir: string;
let chatTrace: string;
/** When Prometheus had the chats: rules evaluated after it see them (an evaluation before the first scrape sees no target). */
let scrapedAt: number;

async function query<T>(path: string): Promise<T> {
  const res = await fetch(`${api}${path}`);
  const body = (await res.json()) as { status: string; data: T };
  if (body.status !== 'success') throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}
type Vector = { metric: Record<string, string>; value: [number, string] }[];
const instant = (promql: string) => query<{ result: Vector }>(`/api/v1/query?query=${encodeURIComponent(promql)}`).then((d) => d.result);

beforeAll(async () => {
  const program = await locatePrometheusProgram('prometheus');
  svc = await startTracedService();
  const target = new URL(await listenOnLoopback(svc.app)).host;
  dir = mkdtempSync(join(tmpdir(), 'prometheus-'));
  writeFileSync(
    join(dir, 'prometheus.yml'),
    JSON.stringify({
      global: { scrape_interval: '1s', evaluation_interval: '1s' },
      rule_files: [join(root, 'deploy/prometheus/alerts.yml')],
      scrape_configs: [{ job_name: 'chat-adapter', static_configs: [{ targets: [target], labels: { environment: 'test' } }] }],
    }),
  );
  const port = await freePort();
  api = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    program,
    [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--enable-feature=exemplar-storage'],
    { stdio: 'ignore' },
  );
  await waitForAsync(async () => (await fetch(`${api}/-/ready`).then((r) => r.ok, () => false)) || undefined, 20_000, 'prometheus ready');

  // A quiet, healthy service: a few chats, one streamed; then one streamed chat whose engine fails.
  for (let i = 0; i < 3; i++) {
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    chatTrace = (res.json() as { trace_id: string }).trace_id;
  }
  svc.stubs.engine.handle((_req, res) => sendJson(res, 503, {}));
  const base = `http://${target}`;
  await postChat(base, chatRequest());
  await waitForAsync(
    async () => ((await instant('chat_adapter_http_request_duration_seconds_count{status_code="503", mode="stream"}')).length > 0 ? true : undefined),
    20_000,
    'the failed stream in Prometheus',
  );
  scrapedAt = Date.now();
}, 120_000);

afterAll(async () => {
  prometheus?.kill('SIGTERM');
  await svc?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function waitForAsync<T>(check: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('a real Prometheus scraping the service', () => {
  it('scrapes it as OpenMetrics, up, and stores the failed stream as a 503 of mode stream', async () => {
    const targets = await query<{ activeTargets: { health: string; lastError: string }[] }>('/api/v1/targets');
    expect(targets.activeTargets.map((t) => [t.health, t.lastError])).toEqual([['up', '']]);
    expect((await instant('up{job="chat-adapter"}')).map((s) => s.value[1])).toEqual(['1']);
    const failed = await instant('sum(chat_adapter_http_request_duration_seconds_count{route=~".*/chat_adapter", status_code="503", mode="stream"})');
    expect(failed[0]?.value[1]).toBe('1');
  });

  it('stores the exemplar of a recorded chat on its latency bucket', async () => {
    const found = await waitForAsync(
      async () => {
        const data = await query<{ exemplars: { labels: { trace_id: string } }[] }[]>(
          `/api/v1/query_exemplars?query=${encodeURIComponent('chat_adapter_http_request_duration_seconds_bucket')}&start=0&end=${Date.now() / 1000 + 60}`,
        );
        const ids = data.flatMap((s) => s.exemplars.map((e) => e.labels.trace_id));
        return ids.includes(chatTrace) ? ids : undefined;
      },
      10_000,
      'the exemplar',
    );
    expect(found).toContain(chatTrace);
  });

  it('has series for every name the alerts and the dashboard query', async () => {
    const names = new Set(await query<string[]>('/api/v1/label/__name__/values'));
    for (const file of ['deploy/prometheus/alerts.yml', 'deploy/grafana/chat-adapter-dashboard.json']) {
      const referenced = new Set([...readFileSync(join(root, file), 'utf8').matchAll(/\b((?:chat_adapter|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!));
      const missing = [...referenced].filter((name) => !names.has(name) && !NO_SERIES_HERE.has(name.replace(/_(bucket|count|sum)$/, '')));
      expect(missing, file).toEqual([]);
    }
  });

  it('evaluates every alerting rule without an error, and fires none for a quiet healthy service', async () => {
    type Rule = { name: string; health: string; lastError?: string; lastEvaluation: string };
    const rules = await waitForAsync(
      async () => {
        const data = await query<{ groups: { rules: Rule[] }[] }>('/api/v1/rules');
        const all = data.groups.flatMap((g) => g.rules);
        return all.length > 0 && all.every((r) => Date.parse(r.lastEvaluation) > scrapedAt) ? all : undefined;
      },
      15_000,
      'every rule evaluated on the scraped chats',
    );
    expect(rules).toHaveLength(19);
    expect(rules.filter((r) => r.health !== 'ok').map((r) => `${r.name}: ${r.lastError ?? r.health}`)).toEqual([]);
    const alerts = await query<{ alerts: { labels: { alertname: string }; state: string }[] }>('/api/v1/alerts');
    expect(alerts.alerts.map((a) => `${a.labels.alertname} ${a.state}`)).toEqual([]);
  });
});
