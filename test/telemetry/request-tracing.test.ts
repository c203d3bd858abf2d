import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SpanKind, type HrTime } from '@opentelemetry/api';
import { chatSteps } from '../../steps/chat-pipeline.ts';
import { WAIT_FOR_TURN } from '../../src/http/chat-admission.ts';

/** Every figure of latency.steps, in order: the wait for the session's turn, then the pipeline's steps. */
const STEP_NAMES = [WAIT_FOR_TURN, ...chatSteps.map((step) => step.name)];
import { chatRequest } from '../helpers/fixtures.ts';
import { childrenOf, spanNamed, startTracedService, type TracedService } from './traced-service.ts';

const ms = (t: HrTime) => t[0] * 1e3 + t[1] / 1e6;

describe('step spans and the request id', () => {
  let svc: TracedService;
  beforeAll(async () => {
    svc = await startTracedService();
  });
  afterAll(async () => {
    await svc.close();
  });
  beforeEach(() => svc.exporter.reset());

  it('gives each step span the very start and duration of its latency.steps figure, in order, inside the SERVER span', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { trace_id: string; latency: { steps: Record<string, number> } };
    const spans = await svc.trace(body.trace_id);
    const server = spanNamed(spans, 'POST /chat_adapter');
    const steps = childrenOf(spans, server).sort((a, b) => ms(a.startTime) - ms(b.startTime));
    expect(steps.map((s) => s.name)).toEqual(STEP_NAMES);
    expect(Object.keys(body.latency.steps)).toEqual(STEP_NAMES);

    let previousEnd = ms(server.startTime);
    for (const step of steps) {
      const figure = body.latency.steps[step.name]!;
      // Equal to the figure as reported (which may be rounded to the microsecond).
      expect(Math.abs(ms(step.duration) - figure), step.name).toBeLessThanOrEqual(0.000501);
      // Each step starts after the previous one ended: no span creation or GC pause between them is hidden.
      expect(ms(step.startTime), step.name).toBeGreaterThanOrEqual(previousEnd);
      previousEnd = ms(step.endTime);
    }
    expect(ms(server.endTime)).toBeGreaterThanOrEqual(previousEnd);
    // Exported alike: the same resource and instrumentation scope as the SDK's own spans, sampled as their parent.
    for (const step of steps) {
      expect(step.resource).toBe(server.resource);
      expect(step.instrumentationScope.name).toBe(server.instrumentationScope.name);
      expect(step.spanContext().traceFlags).toBe(server.spanContext().traceFlags);
      expect(step.spanContext().spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    // The client spans sit inside their steps on the same clock.
    const engine = spanNamed(spans, 'askEngine');
    const call = childrenOf(spans, engine)[0]!;
    expect(ms(call.startTime)).toBeGreaterThanOrEqual(ms(engine.startTime));
    expect(ms(call.endTime)).toBeLessThanOrEqual(ms(engine.endTime));
    expect(call.resource).toBe(server.resource);
    expect(call.spanContext().traceFlags).toBe(server.spanContext().traceFlags);
  });

  it('uses the trace id as the request id: every line of the request has it once, as trace_id, and no other id', async () => {
    const before = svc.logs.length;
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    const traceId = (res.json() as { trace_id: string }).trace_id;
    const lines = svc.logs.slice(before).join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const completed = lines.find((l) => l['msg'] === 'request completed')!;
    expect(completed['trace_id']).toBe(traceId);
    expect(completed).not.toHaveProperty('reqId');
  });

  it('makes no trace and writes no log line for probes and scrapes (/heartbeat, /ready, /metrics), yet counts them', async () => {
    svc.exporter.reset();
    const before = svc.logs.length;
    expect((await svc.app.inject({ method: 'GET', url: '/heartbeat' })).statusCode).toBe(200);
    expect((await svc.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    const scrape = await svc.app.inject({ method: 'GET', url: '/metrics' });
    expect(scrape.statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(svc.exporter.getFinishedSpans()).toEqual([]);
    expect(svc.logs.slice(before)).toEqual([]);
    expect(scrape.body).toMatch(/^chat_adapter_http_request_duration_seconds_count\{method="GET",route="\/ready",status_code="200",mode="json"\} 1$/m);
    // A chat after them is still logged.
    await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    expect(svc.logs.slice(before).some((l) => l.includes('"request completed"'))).toBe(true);
  });
});

describe('sampling (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG)', () => {
  let svc: TracedService;
  beforeAll(async () => {
    svc = await startTracedService({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('records no trace the ratio leaves out, yet returns and propagates its id as not sampled', async () => {
    svc.exporter.reset();
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    expect(res.statusCode).toBe(200);
    const traceId = (res.json() as { trace_id: string }).trace_id;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(svc.stubs.engine.requests.at(-1)!.headers['traceparent']).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(svc.exporter.getFinishedSpans()).toEqual([]);
  });

  it("follows a caller's decision to sample: the whole trace is recorded", async () => {
    const incoming = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers: { traceparent: `00-${incoming}-00f067aa0ba902b7-01` } });
    expect(res.statusCode).toBe(200);
    const spans = await svc.trace(incoming);
    expect(spanNamed(spans, 'POST /chat_adapter').kind).toBe(SpanKind.SERVER);
    expect(spans.filter((s) => STEP_NAMES.includes(s.name))).toHaveLength(STEP_NAMES.length);
  });
});
