import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { startTracedService, type TracedService } from './traced-service.ts';

let svc: TracedService;
beforeAll(async () => {
  svc = await startTracedService({ DISABLE_TRACING: 'true' });
});
afterAll(async () => {
  await svc.close();
});

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;

describe('DISABLE_TRACING=true', () => {
  it('records no span, yet returns a trace id and propagates it downstream', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    expect(res.statusCode).toBe(200);
    const traceId = res.json().trace_id as string;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe('0'.repeat(32));

    const sent = String(svc.stubs.engine.requests.at(-1)!.headers['traceparent']);
    expect(sent).toMatch(TRACEPARENT);
    expect(TRACEPARENT.exec(sent)![1]).toBe(traceId);
    // Not sampled: the downstream is told nothing was recorded.
    expect(sent.endsWith('-00')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(svc.exporter.getFinishedSpans()).toEqual([]);
  });

  it('still continues an incoming traceparent, in the response and in error bodies', async () => {
    const incoming = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const headers = { traceparent: `00-${incoming}-1122334455667788-01` };
    const ok = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers });
    expect(ok.json().trace_id).toBe(incoming);
    const bad = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest({ propertyId: 'x' }), headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail.trace_id).toBe(incoming);
    expect(svc.exporter.getFinishedSpans()).toEqual([]);
  });

  it('makes a new trace id per request', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
      ids.add(res.json().trace_id);
    }
    expect(ids.size).toBe(3);
  });
});
