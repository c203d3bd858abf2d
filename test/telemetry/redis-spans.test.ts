/**
 * A chat's Redis scripts have CLIENT spans of their own, children of the chat's SERVER span, with the
 * OpenTelemetry database conventions' attributes (docs/observability.md#traces): with a real
 * redis-server, the chat's start (chatBegin, the Idempotency-Key claim), its end (the kept answer,
 * chatEnd) each show as `EVALSHA <script>`, timed as the Redis latency histogram times them, and no
 * span holds a key's value (the session, the Idempotency-Key) or anything of the visitor's. With
 * tracing off no span is made at all; a script Redis refuses is an error span with the reply's prefix.
 */
import { randomUUID } from 'node:crypto';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisScript } from '../../src/shared-state/redis-script.ts';
import { startRedisSpan } from '../../src/telemetry/fast/redis-span.ts';
import { createTracing } from '../../src/telemetry/tracing.ts';
import { chatRequest } from '../helpers/fixtures.ts';
import { metricValue } from '../helpers/metric-value.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { untilRedisReady } from '../helpers/stubbed-service.ts';
import { childrenOf, spanText, startTracedService, waitFor, type TracedService } from './traced-service.ts';

let redis: TestRedis;
let svc: TracedService;
beforeAll(async () => {
  redis = await startTestRedis();
  svc = await startTracedService({ REDIS_URL: redis.url });
  await untilRedisReady(svc);
}, 120_000);
afterAll(async () => {
  await svc?.close();
  await redis?.stop();
});

describe("a chat's Redis scripts", () => {
  it('are CLIENT spans under the chat, named and described by the database conventions, with no key or message in them', async () => {
    const key = `idem-${randomUUID()}`;
    const payload = chatRequest();
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload, headers: { 'idempotency-key': key } });
    expect(res.statusCode).toBe(200);
    const traceId = (res.json() as { trace_id: string }).trace_id;
    await svc.trace(traceId);
    // The turn leaves Redis as the answer goes out, without holding it: its span may end just after the chat's.
    const spans = await waitFor(() => {
      const all = svc.exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
      return all.some((s) => s.name === 'EVALSHA chatEnd') ? all : undefined;
    }, 3_000, 'the chatEnd span');
    const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
    const redisSpans = childrenOf(spans, server).filter((s) => s.attributes['db.system.name'] === 'redis');
    const names = redisSpans.map((s) => s.name).sort();
    // A lease renewal (every 500 ms) shows too when the chat is slow on a loaded machine.
    expect(names.filter((n) => n !== 'EVALSHA turnRenew')).toEqual(['EVALSHA chatBegin', 'EVALSHA chatEnd', 'EVALSHA idempotencyClaim', 'EVALSHA idempotencyComplete']);
    for (const span of redisSpans) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
      expect(span.attributes).toEqual({
        'db.system.name': 'redis',
        'db.operation.name': 'EVALSHA',
        'db.stored_procedure.name': span.name.slice('EVALSHA '.length),
        'server.address': '127.0.0.1',
        'server.port': redis.port,
        'network.peer.address': '127.0.0.1',
        'network.peer.port': redis.port,
      });
      // Started within the chat's own span.
      const ms = (t: readonly [number, number]) => t[0] * 1e3 + t[1] / 1e6;
      expect(ms(span.startTime)).toBeGreaterThanOrEqual(ms(server.startTime));
      expect(ms(span.startTime)).toBeLessThanOrEqual(ms(server.endTime));
    }
    const at = (name: string) => {
      const { startTime } = redisSpans.find((s) => s.name === name)!;
      return startTime[0] * 1e9 + startTime[1];
    };
    expect(at('EVALSHA chatEnd')).toBeGreaterThan(at('EVALSHA chatBegin'));
    expect(at('EVALSHA idempotencyComplete')).toBeGreaterThan(at('EVALSHA idempotencyClaim'));

    // Nothing a key is made of (the session, the Idempotency-Key, the org) nor the visitor's message.
    const text = spanText(redisSpans);
    for (const secret of [key, String(payload['session_id']), String(payload['orgId']), 'office hours']) expect(text).not.toContain(secret);
    // The same calls the latency histogram counted.
    const metrics = await svc.metrics.registry.metrics();
    expect(metricValue(metrics, 'chat_adapter_redis_command_duration_seconds_count{command="chatBegin",outcome="ok"}')).toBeGreaterThanOrEqual(1);
  });

  it('makes no span with tracing disabled, nor outside a chat', async () => {
    const off = createTracing({ disabled: true });
    const span = off.tracer.startSpan('POST /chat_adapter');
    expect(context.with(trace.setSpan(context.active(), span), () => startRedisSpan({ tracer: off.tracer }, { operation: 'EVALSHA', script: 'chatBegin' }))).toBeUndefined();
    const exporter = new InMemorySpanExporter();
    const on = createTracing({ disabled: false, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    expect(startRedisSpan({ tracer: on.tracer }, { operation: 'EVALSHA', script: 'chatBegin' })).toBeUndefined();
    await Promise.all([off.shutdown(), on.shutdown()]);
  });

  it('marks a script Redis refuses as failed, with the reply prefix and no message', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = createTracing({ disabled: false, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const client = new Redis(redis.url);
    try {
      const failing = redisScript(client, 'alwaysFails', 1, "return redis.error_reply('WRONGTYPE not this key: ' .. KEYS[1])", { tracer: tracing.tracer, server: { address: '127.0.0.1', port: redis.port } });
      const chat = tracing.tracer.startSpan('POST /chat_adapter', { kind: SpanKind.SERVER });
      await expect(context.with(trace.setSpan(context.active(), chat), () => failing(['secret-session-key'], []))).rejects.toThrow(/WRONGTYPE/);
      chat.end();
      const span = exporter.getFinishedSpans().find((s) => s.name === 'EVALSHA alwaysFails')!;
      expect(span.parentSpanContext?.spanId).toBe(chat.spanContext().spanId);
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes['error.type']).toBe('WRONGTYPE');
      expect(span.attributes['db.response.status_code']).toBe('WRONGTYPE');
      expect(spanText([span])).not.toContain('secret-session-key');
    } finally {
      client.disconnect();
      await tracing.shutdown();
    }
  });
});
