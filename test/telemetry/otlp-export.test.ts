import { describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { startStub, sendJson } from '../helpers/stub-server.ts';
import { startStubbedService } from '../helpers/stubbed-service.ts';

describe('OTLP/HTTP export (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('sends the spans in a batch to <endpoint>/v1/traces, flushed on shutdown', async () => {
    const collector = await startStub((_req, res) => sendJson(res, 200, {}));
    const svc = await startStubbedService({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
        expect(res.statusCode).toBe(200);
        ids.push(res.json().trace_id);
      }
      // Batched: nothing is sent per request (the batch delay is seconds).
      expect(collector.requests).toHaveLength(0);
      await svc.close();

      expect(collector.requests.length).toBeGreaterThanOrEqual(1);
      const exported = collector.requests.map((r) => JSON.stringify(r.body)).join('\n');
      for (const r of collector.requests) {
        expect(r.method).toBe('POST');
        expect(r.path).toBe('/v1/traces');
        expect(r.headers['content-type']).toContain('application/json');
      }
      for (const id of ids) expect(exported).toContain(id);
      expect(exported).toContain('askEngine');
      expect(exported).toContain('chat-adapter');
    } finally {
      await collector.close();
    }
  });

  it('a dead collector never affects requests, is reported, and does not hang shutdown', async () => {
    const gone = await startStub(() => undefined);
    await gone.close();
    const reasons: string[] = [];
    const svc = await startStubbedService(
      { OTEL_EXPORTER_OTLP_ENDPOINT: gone.url },
      { onExportError: (reason) => reasons.push(reason), exportTimeoutMs: 1_000 },
    );
    for (let i = 0; i < 3; i++) {
      const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
      expect(res.statusCode).toBe(200);
    }
    const started = Date.now();
    await svc.close();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(reasons.length).toBeGreaterThanOrEqual(1);
  });

  it('a collector that never answers does not slow requests, and shutdown gives up after the export timeout', async () => {
    const stuck = await startStub(() => new Promise<void>(() => undefined));
    const reasons: string[] = [];
    const svc = await startStubbedService(
      { OTEL_EXPORTER_OTLP_ENDPOINT: stuck.url },
      { onExportError: (reason) => reasons.push(reason), exportTimeoutMs: 500 },
    );
    try {
      const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
      expect(res.statusCode).toBe(200);
      const started = Date.now();
      await svc.close();
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(stuck.requests.length).toBeGreaterThanOrEqual(1);
      expect(reasons.length).toBeGreaterThanOrEqual(1);
    } finally {
      await stuck.close();
    }
  });
});
