/**
 * The alerting rules and the dashboard query metrics by name and label: a renamed metric or label
 * would leave an alert that never fires and a panel that stays empty. Every `chat_adapter_*` and
 * `nodejs_*` name they use must be served by the service's /metrics (scraped after a JSON and a
 * streamed chat), every label they select on must be one that metric carries, and the probe paths
 * of the manifests must be served routes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

const deployDir = join(import.meta.dirname, '../../deploy');

/**
 * Metrics the alerts and the dashboard already watch whose recording other work of the same
 * release adds: the party pools' wait (fair shares). Each is allowed to be missing here only until
 * the service serves it; then it is checked like every other name, and the entry should go.
 */
const ADDED_ELSEWHERE: ReadonlySet<string> = new Set(['chat_adapter_party_pool_wait_seconds']);
const METRIC = /\b((?:chat_adapter|nodejs)_[a-z0-9_]+?)(?:_bucket|_count|_sum)?\b/g;
const referenced = (file: string) => new Set([...readFileSync(join(deployDir, file), 'utf8').matchAll(METRIC)].map((m) => m[1]!));
/** Labels Prometheus adds to every series (target labels), and a histogram's own. */
const NOT_THE_SERVICES = new Set(['environment', 'instance', 'job', 'le']);

/** For each metric of the scrape, the label names its series carry. */
function labelsByMetric(scrape: string): Map<string, Set<string>> {
  const byMetric = new Map<string, Set<string>>();
  for (const [, name, labels] of scrape.matchAll(/^([a-z_][a-z0-9_]*)\{([^}]*)\} /gm)) {
    const base = name!.replace(/_(bucket|count|sum)$/, '');
    const set = byMetric.get(base) ?? new Set<string>();
    for (const [, label] of labels!.matchAll(/([a-z_]+)="/g)) set.add(label!);
    byMetric.set(base, set);
  }
  return byMetric;
}

/** Each `metric{label=..., ...}` selector of a file: the metric and the label names it selects on. */
function selectors(file: string): { metric: string; labels: string[] }[] {
  const text = readFileSync(join(deployDir, file), 'utf8').replaceAll('\\"', '"');
  return [...text.matchAll(/\b((?:chat_adapter|nodejs)_[a-z0-9_]+)\{([^}]*)\}/g)].map(([, name, inside]) => ({
    metric: name!.replace(/_(bucket|count|sum)$/, ''),
    labels: [...inside!.matchAll(/([a-z_]+)\s*(?:=~|!=|!~|=)/g)].map((m) => m[1]!),
  }));
}

describe('names used by deploy/ exist in the service', () => {
  const service = useStubbedService();

  it('serves every metric the alerts and the dashboard query', async () => {
    const text = (await service.svc.app.inject({ method: 'GET', url: '/metrics' })).body;
    const served = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
    for (const file of ['prometheus/alerts.yml', 'grafana/chat-adapter-dashboard.json']) {
      const names = referenced(file);
      expect(names.size, file).toBeGreaterThan(3);
      expect([...names].filter((name) => !served.has(name) && !ADDED_ELSEWHERE.has(name)), `${file}: metrics the service does not serve`).toEqual([]);
    }
  });

  it('selects only on labels the metrics carry', async () => {
    // A JSON chat and a streamed one, so that the histograms of both have series.
    const app = service.svc.app;
    expect((await app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() })).statusCode).toBe(200);
    const streamed = await app.inject({ method: 'POST', url: '/chat_adapter', headers: { accept: 'text/event-stream' }, payload: chatRequest() });
    expect(streamed.body).toContain('data-chat');
    const carried = labelsByMetric((await app.inject({ method: 'GET', url: '/metrics' })).body);
    for (const file of ['prometheus/alerts.yml', 'grafana/chat-adapter-dashboard.json']) {
      const found = selectors(file);
      expect(found.length, file).toBeGreaterThan(10);
      const problems = found.flatMap(({ metric, labels }) => {
        const known = carried.get(metric);
        if (known === undefined) return [];
        return labels.filter((label) => !NOT_THE_SERVICES.has(label) && !known.has(label)).map((label) => `${metric} has no label ${label}`);
      });
      expect([...new Set(problems)], file).toEqual([]);
    }
  });

  it('answers the liveness and readiness probe paths', async () => {
    expect((await service.svc.app.inject({ method: 'GET', url: '/heartbeat' })).statusCode).toBe(200);
    expect((await service.svc.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
  });
});
