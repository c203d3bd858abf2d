/**
 * Figures that mean what they say (docs/observability.md#traces): the engine call is one GenAI
 * client span (`chat`, kind CLIENT, `error.type` on failure), and a reply reused from the session
 * cache is never recorded as an engine call: its step is `askEngineCacheHit` in the body, the span,
 * the step metric and the log line, and nothing is observed as engine latency.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CACHE_HIT_STEP as LATENCY_CACHE_HIT_STEP } from '../../schemas/chat-steps.ts';
import { CACHE_HIT_STEP } from '../../src/telemetry/fast/step-span.ts';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { metricValue } from '../helpers/metric-value.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startTracedService, waitFor, type TracedService } from './traced-service.ts';

let svc: TracedService;
beforeAll(async () => {
  svc = await startTracedService();
});
afterAll(async () => {
  await svc.close();
});

const scrape = async () => (await svc.app.inject({ method: 'GET', url: '/metrics' })).body;
const post = (payload: Record<string, unknown>) => svc.app.inject({ method: 'POST', url: '/chat_adapter', payload });
const stepCount = (text: string, step: string) => metricValue(text, `chat_adapter_step_duration_seconds_count{step="${step}",outcome="ok"}`);

describe('the engine call as a GenAI span', () => {
  it('is a CLIENT span named chat that carries error.type when the engine fails', async () => {
    svc.stubs.engine.handle((_req, res) => sendJson(res, 503, {}));
    const res = await post(chatRequest());
    expect(res.statusCode).toBe(503);
    const server = await waitFor(() => svc.exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.attributes['http.response.status_code'] === 503));
    const call = (await svc.trace(server.spanContext().traceId)).find((s) => s.name === 'chat')!;
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'error.type': 'status_503', 'server.service.name': 'engine' });
  });
});

describe('a reply reused from the session cache', () => {
  it('is its own step and span, never an engine call or engine latency', async () => {
    expect(CACHE_HIT_STEP).toBe(LATENCY_CACHE_HIT_STEP);
    svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    const session_id = newSessionId();
    const first = await post(chatRequest({ session_id, message: 'What time does the leasing office open on weekdays?' }));
    expect(first.statusCode).toBe(200);
    const before = await scrape();
    const logsBefore = svc.logs.length;
    const again = await post(chatRequest({ session_id, message: 'what time does the leasing office open on weekdays' }));
    expect(again.statusCode).toBe(200);
    expect(again.json().latency.steps).toHaveProperty('askEngineCacheHit');

    const spans = await svc.trace(again.json().trace_id as string);
    const names = spans.map((s) => s.name);
    expect(names).toContain('askEngineCacheHit');
    expect(names).not.toContain('askEngine');
    expect(names).not.toContain('chat');
    expect(spans.some((s) => s.attributes['gen_ai.operation.name'] !== undefined)).toBe(false);
    expect(spans.find((s) => s.name === 'askEngineCacheHit')!.attributes['chat_adapter.reply_source']).toBe('cache');

    const after = await scrape();
    expect(stepCount(after, 'askEngineCacheHit') - stepCount(before, 'askEngineCacheHit')).toBe(1);
    expect(stepCount(after, 'askEngine') - stepCount(before, 'askEngine')).toBe(0);
    expect(metricValue(after, 'chat_adapter_engine_first_event_seconds_count') - metricValue(before, 'chat_adapter_engine_first_event_seconds_count')).toBe(0);
    const line = svc.logs.slice(logsBefore).map((l) => JSON.parse(l) as { msg: string; steps?: Record<string, number> }).find((l) => l.msg === 'request completed')!;
    expect(Object.keys(line.steps!)).toContain('askEngineCacheHit');
    expect(Object.keys(line.steps!)).not.toContain('askEngine');
  });
});
