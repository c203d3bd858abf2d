/**
 * Exemplars (docs/observability.md#metrics): a scraper that asks for OpenMetrics (as Prometheus
 * does) gets the latency buckets with the trace id of a recorded chat, so that a spike leads to a
 * trace; the Prometheus text stays as it was, before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { startTracedService, type TracedService } from './traced-service.ts';

const PROMETHEUS_ACCEPT = 'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1';
const scrape = (svc: StubbedService, accept?: string) => svc.app.inject({ method: 'GET', url: '/metrics', headers: accept === undefined ? {} : { accept } });

describe('an OpenMetrics scrape of a traced service', () => {
  let svc: TracedService;
  beforeAll(async () => {
    svc = await startTracedService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('puts the chat trace id on its latency bucket as an exemplar', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    const traceId = (res.json() as { trace_id: string }).trace_id;
    const text = await scrape(svc, PROMETHEUS_ACCEPT);
    expect(text.headers['content-type']).toBe('application/openmetrics-text; version=1.0.0; charset=utf-8');
    const body = text.body;
    expect(body.endsWith('\n# EOF\n')).toBe(true);
    expect(body).not.toMatch(/\n\n/);
    const exemplars = body.split('\n').filter((l) => l.startsWith('chat_adapter_http_request_duration_seconds_bucket{') && l.includes(' # {'));
    expect(exemplars).toHaveLength(1);
    expect(exemplars[0]).toMatch(new RegExp(`route="/chat_adapter".* [1-9]\\d* # \\{trace_id="${traceId}"\\} \\d+(\\.\\d+)?(e-\\d+)? \\d+(\\.\\d+)?$`));
    // Its step buckets too, with the same trace.
    expect(body).toMatch(new RegExp(`^chat_adapter_step_duration_seconds_bucket\\{[^}]*step="askEngine"[^}]*\\} \\d+ # \\{trace_id="${traceId}"\\}`, 'm'));
  });

  it('names counter families as OpenMetrics does, and leaves the Prometheus text as it was', async () => {
    const open = (await scrape(svc, PROMETHEUS_ACCEPT)).body;
    expect(open).toContain('# TYPE chat_adapter_shed counter');
    expect(open).toMatch(/^chat_adapter_shed_total\{reason="event_loop_delay"\} 0$/m);
    expect(open).toContain('# TYPE process_cpu_user_seconds counter');
    const plain = await scrape(svc);
    expect(plain.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(plain.body).toContain('# TYPE chat_adapter_shed_total counter');
    expect(plain.body).toMatch(/^chat_adapter_shed_total\{reason="event_loop_delay"\} 0$/m);
    expect(plain.body).not.toContain(' # {');
    expect(plain.body).not.toContain('# EOF');
  });
});

describe('an OpenMetrics scrape of a service that records no spans', () => {
  let svc: StubbedService;
  beforeAll(async () => {
    svc = await startStubbedService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('has no exemplar: it would name a trace nobody can find', async () => {
    expect((await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() })).statusCode).toBe(200);
    const body = (await scrape(svc, PROMETHEUS_ACCEPT)).body;
    expect(body).toMatch(/^chat_adapter_http_request_duration_seconds_count\{/m);
    expect(body).not.toContain(' # {');
  });
});
