/**
 * The Grafana dashboard an on-call opens: it picks its data source, environment and instance at the
 * top, every query honours them, and it shows the golden signals per route and per party, streams,
 * first text, handoffs and fallbacks. (Names and labels are checked against a scrape in
 * observability-names.test.ts, the queries' syntax by promtool in promtool.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface Target {
  readonly expr: string;
  readonly datasource?: { uid: string };
}
interface Panel {
  readonly type: string;
  readonly title: string;
  readonly datasource?: { uid: string };
  readonly targets?: readonly Target[];
}
const dashboard = JSON.parse(readFileSync(join(import.meta.dirname, '../../deploy/grafana/chat-adapter-dashboard.json'), 'utf8')) as {
  templating: { list: { name: string; type: string; query: unknown }[] };
  panels: Panel[];
};
const graphs = dashboard.panels.filter((p) => p.type !== 'row');
const exprs = graphs.flatMap((p) => (p.targets ?? []).map((t) => t.expr));

describe('the dashboard', () => {
  it('has template variables for the data source, the environment and the instance', () => {
    expect(dashboard.templating.list.map((v) => [v.name, v.type])).toEqual([
      ['datasource', 'datasource'],
      ['environment', 'query'],
      ['instance', 'query'],
    ]);
  });

  it('queries the chosen data source, environment and instance in every panel', () => {
    for (const panel of graphs) {
      expect(panel.datasource?.uid, panel.title).toBe('${datasource}');
      for (const target of panel.targets ?? []) {
        expect(target.datasource?.uid, panel.title).toBe('${datasource}');
        // Every selector of the query, not only the first.
        for (const [selector] of target.expr.matchAll(/\{[^}]*\}/g)) {
          expect(selector, `${panel.title}: ${target.expr}`).toContain('environment=~"$environment"');
          expect(selector, `${panel.title}: ${target.expr}`).toContain('instance=~"$instance"');
        }
      }
    }
  });

  it('selects chats under any ROUTE_PREFIX and keeps streamed and JSON latency apart', () => {
    expect(exprs.some((e) => e.includes('route="/chat_adapter"'))).toBe(false);
    const latency = exprs.filter((e) => e.includes('chat_adapter_http_request_duration_seconds_bucket'));
    expect(latency.length).toBeGreaterThan(0);
    for (const e of latency) expect(e).toMatch(/mode="(json|stream)"/);
  });

  it('shows the golden signals per route and per party, saturation, streams, first text, handoffs and fallbacks', () => {
    const shows = (pattern: RegExp) => exprs.some((e) => pattern.test(e));
    expect(shows(/sum by \(route, mode\) \(rate\(chat_adapter_http_request_duration_seconds_count/)).toBe(true);
    expect(shows(/sum by \(route\) \(rate\(chat_adapter_http_request_duration_seconds_count\{[^}]*status_code=~"5\.\."/)).toBe(true);
    expect(shows(/sum by \(party\) \(rate\(chat_adapter_downstream_duration_seconds_count/)).toBe(true);
    expect(shows(/sum by \(party, reason\) \(rate\(chat_adapter_downstream_errors_total/)).toBe(true);
    expect(shows(/le, party\) \(rate\(chat_adapter_downstream_duration_seconds_bucket/)).toBe(true);
    expect(shows(/le, party\) \(rate\(chat_adapter_party_pool_wait_seconds_bucket/)).toBe(true);
    for (const metric of [
      'chat_adapter_shed_total',
      'nodejs_eventloop_lag_p99_seconds',
      'chat_adapter_heap_limit_bytes',
      'chat_adapter_streams_total',
      'chat_adapter_time_to_first_text_seconds_bucket',
      'chat_adapter_engine_first_event_seconds_bucket',
      'chat_adapter_handoffs_enqueued_total',
      'chat_adapter_handoff_delivery_attempts_total',
      'chat_adapter_handoff_dead_letters_total',
      'chat_adapter_shared_state_fallbacks_total',
      'chat_adapter_redis_command_duration_seconds_bucket',
    ]) {
      expect(shows(new RegExp(`\\b${metric}\\b`)), metric).toBe(true);
    }
  });
});
