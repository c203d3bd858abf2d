/**
 * The telemetry fast paths' contract (src/telemetry/fast/README.md): the same chats, through a
 * service with its fast paths (TELEMETRY_FAST_PATHS=true, the default) and one without (false: every
 * span through the OpenTelemetry SDK's own `tracer.startSpan`), exported by the SDK's own
 * InMemorySpanExporter, give the same spans: names, kinds, parent/child tree, attributes, events,
 * status, resource and instrumentation scope. Ids and times differ by nature and are not compared;
 * the times are checked to nest (a child within its parent) under both settings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SpanKind, context, trace, type HrTime } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { graphqlStubHandler, startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { endRedisSpan, startRedisSpan } from '../../src/telemetry/fast/redis-span.ts';
import { spanNow } from '../../src/telemetry/fast/span-clock.ts';
import { TimedSpan } from '../../src/telemetry/fast/timed-span.ts';
import { createTracing } from '../../src/telemetry/tracing.ts';
import { waitFor } from './traced-service.ts';

interface Side {
  readonly svc: StubbedService;
  readonly exporter: InMemorySpanExporter;
}

/** Both services get the same resource (service.instance.id is otherwise a UUID per process). */
const ENV = { OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=fast-path-contract' };

async function startSide(fastPaths: boolean): Promise<Side> {
  const exporter = new InMemorySpanExporter();
  const svc = await startStubbedService({ ...ENV, TELEMETRY_FAST_PATHS: String(fastPaths) }, { spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { svc, exporter };
}

let fast: Side;
let sdk: Side;
beforeAll(async () => {
  [fast, sdk] = await Promise.all([startSide(true), startSide(false)]);
});
afterAll(async () => {
  await Promise.all([fast?.svc.close(), sdk?.svc.close()]);
});

beforeEach(() => {
  for (const { svc, exporter } of [fast, sdk]) {
    exporter.reset();
    svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    svc.stubs.graphql.handle(graphqlStubHandler());
    svc.stubs.translate.handle((req, res) => sendJson(res, 200, { translated_text: `[es] ${(req.body as { text: string }).text}` }));
    svc.stubs.handoff.handle((_req, res) => sendJson(res, 202, { accepted: true }));
  }
});

/** Posts a chat and waits for its trace (its SERVER span ended); the spans of that trace. */
async function chatTrace(side: Side, payload: Record<string, unknown>): Promise<{ status: number; spans: ReadableSpan[] }> {
  const res = await side.svc.app.inject({ method: 'POST', url: '/chat_adapter', payload });
  // `traceresponse: 00-<trace id>-<SERVER span id>-<flags>` is on every answer, an error's too.
  const [, traceId, serverSpanId] = String(res.headers['traceresponse']).split('-');
  expect(traceId, res.body).toMatch(/^[0-9a-f]{32}$/);
  const spans = await waitFor(
    () => {
      const of = side.exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
      return of.some((s) => s.kind === SpanKind.SERVER) ? of : undefined;
    },
    3_000,
    `the SERVER span of ${traceId}`,
  );
  expect(spans.find((s) => s.kind === SpanKind.SERVER)?.spanContext().spanId).toBe(serverSpanId);
  return { status: res.statusCode, spans };
}

/** A stub's port differs between the two services: `127.0.0.1:<port>` and `server.port` are written as PORT. */
function portFree(value: unknown, ports: ReadonlySet<number>): unknown {
  if (typeof value === 'number' && ports.has(value)) return 'PORT';
  if (typeof value === 'string') return value.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
  if (Array.isArray(value)) return value.map((v: unknown) => portFree(v, ports));
  return value;
}

function stubPorts(svc: StubbedService): Set<number> {
  return new Set(Object.values(svc.stubs).map((stub) => Number(new URL(stub.url).port)));
}

const sorted = (record: Readonly<Record<string, unknown>>, ports: ReadonlySet<number>) =>
  Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, portFree(record[key], ports)]),
  );

interface ComparableSpan {
  readonly name: string;
  readonly kind: SpanKind;
  readonly attributes: Record<string, unknown>;
  readonly events: readonly { name: string; attributes: Record<string, unknown> }[];
  readonly status: { code: number; message?: string };
  readonly links: number;
  readonly dropped: readonly number[];
  readonly resource: Record<string, unknown>;
  readonly scope: { name: string; version?: string | undefined; schemaUrl?: string | undefined };
  readonly children: ComparableSpan[];
}

/** One trace as a tree, without ids and times; siblings in a stable order. */
function tree(spans: readonly ReadableSpan[], ports: ReadonlySet<number>): ComparableSpan[] {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const build = (span: ReadableSpan): ComparableSpan => ({
    name: span.name,
    kind: span.kind,
    attributes: sorted(span.attributes, ports),
    events: span.events.map((e) => ({ name: e.name, attributes: sorted(e.attributes ?? {}, ports) })),
    status: span.status.message === undefined ? { code: span.status.code } : { code: span.status.code, message: span.status.message },
    links: span.links.length,
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
    resource: sorted(span.resource.attributes, ports),
    scope: { name: span.instrumentationScope.name, version: span.instrumentationScope.version, schemaUrl: span.instrumentationScope.schemaUrl },
    children: spans.filter((c) => c.parentSpanContext?.spanId === span.spanContext().spanId).map(build).sort(bySubtree),
  });
  // Roots: spans whose parent is not in this trace (the SERVER span).
  return spans.filter((s) => s.parentSpanContext === undefined || !ids.has(s.parentSpanContext.spanId)).map(build).sort(bySubtree);
}

function bySubtree(a: ComparableSpan, b: ComparableSpan): number {
  const left = JSON.stringify(a);
  const right = JSON.stringify(b);
  return left < right ? -1 : left > right ? 1 : 0;
}

const nanos = (time: HrTime): bigint => BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);

/** Every span of the trace ends after it starts, and within its parent's start and end. */
function expectNested(spans: readonly ReadableSpan[]): void {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  for (const span of spans) {
    expect(nanos(span.endTime) >= nanos(span.startTime), `${span.name} ends after it starts`).toBe(true);
    const parent = span.parentSpanContext === undefined ? undefined : byId.get(span.parentSpanContext.spanId);
    if (parent === undefined) continue;
    expect(nanos(span.startTime) >= nanos(parent.startTime), `${span.name} starts within ${parent.name}`).toBe(true);
    expect(nanos(span.endTime) <= nanos(parent.endTime), `${span.name} ends within ${parent.name}`).toBe(true);
  }
}

/** The same chat (same session and conversation) through both services: the same spans. */
async function expectSameSpans(payload: Record<string, unknown>): Promise<{ status: number; spans: ComparableSpan[] }> {
  const viaFast = await chatTrace(fast, payload);
  const viaSdk = await chatTrace(sdk, payload);
  expect(viaSdk.status).toBe(viaFast.status);
  // Each side took its own path: the fast one hands TimedSpans to the processors, the other only SDK spans.
  expect(viaFast.spans.filter((s) => s instanceof TimedSpan).length).toBe(viaFast.spans.length - 1);
  expect(viaSdk.spans.some((s) => s instanceof TimedSpan)).toBe(false);
  expectNested(viaFast.spans);
  expectNested(viaSdk.spans);
  const fastTree = tree(viaFast.spans, stubPorts(fast.svc));
  const sdkTree = tree(viaSdk.spans, stubPorts(sdk.svc));
  expect(fastTree).toHaveLength(1);
  expect(sdkTree).toEqual(fastTree);
  return { status: viaFast.status, spans: fastTree };
}

const names = (spans: readonly ComparableSpan[]): string[] => spans.flatMap((s) => [s.name, ...names(s.children)]);

describe('telemetry fast paths: the same spans as the SDK path (InMemorySpanExporter)', () => {
  it('a JSON chat with a fixed reply: engine and GraphQL CLIENT spans under their steps', async () => {
    const { status, spans } = await expectSameSpans(chatRequest());
    expect(status).toBe(200);
    const all = names(spans);
    expect(all).toEqual(expect.arrayContaining(['POST /chat_adapter', 'askEngine', 'chat', 'storeQuestion', 'storeAnswer', 'mutation CreateServiceMessage']));
    const askEngine = spans[0]!.children.find((s) => s.name === 'askEngine')!;
    expect(askEngine.attributes['chat_adapter.retrieval_type']).toBe('fixed');
    expect(askEngine.children.map((s) => [s.name, s.kind])).toEqual([['chat', SpanKind.CLIENT]]);
  });

  it('a chat that calls the engine, the GraphQL API and the translation service', async () => {
    const { status, spans } = await expectSameSpans(chatRequest({ spanish_toggle: true }));
    expect(status).toBe(200);
    expect(names(spans)).toEqual(expect.arrayContaining(['chat', 'mutation CreateServiceMessage', 'POST /translate']));
  });

  it('a reply reused from the session cache (askEngineCacheHit, no engine call)', async () => {
    const payload = chatRequest();
    await expectSameSpans(payload);
    const { spans } = await expectSameSpans(payload);
    expect(names(spans)).toContain('askEngineCacheHit');
    expect(names(spans)).not.toContain('chat');
  });

  it('a failing engine call: error status and exception events on the same spans', async () => {
    for (const { svc } of [fast, sdk]) svc.stubs.engine.handle((_req, res) => sendJson(res, 500, { error: 'down' }));
    const { status, spans } = await expectSameSpans(chatRequest());
    expect(status).toBe(503);
    const server = spans[0]!;
    expect(server.status.code).toBe(2);
    const askEngine = server.children.find((s) => s.name === 'askEngine')!;
    expect(askEngine.status.code).toBe(2);
    expect(askEngine.events.map((e) => e.name)).toContain('exception');
    expect(askEngine.children.every((c) => c.status.code === 2)).toBe(true);
  });

  it('without a processor the SERVER span is the SDK\'s own: the trace id is still returned and continued', async () => {
    const incoming = '4bf92f3577b34da6a3ce929d0e0e4736';
    const plain = await startStubbedService({ ...ENV, TELEMETRY_FAST_PATHS: 'false' });
    try {
      plain.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
      plain.stubs.graphql.handle(graphqlStubHandler());
      const res = await plain.app.inject({
        method: 'POST',
        url: '/chat_adapter',
        payload: chatRequest(),
        headers: { traceparent: `00-${incoming}-00f067aa0ba902b7-01` },
      });
      expect(res.statusCode).toBe(200);
      expect((res.json() as { trace_id: string }).trace_id).toBe(incoming);
      expect(String(plain.stubs.engine.requests.at(-1)!.headers['traceparent'])).toMatch(new RegExp(`^00-${incoming}-[0-9a-f]{16}-01$`));
    } finally {
      await plain.close();
    }
  });
});

describe('telemetry fast paths: Redis CLIENT spans (redis-span.ts) as the SDK makes them', () => {
  /** Two Redis calls (one refused) under a span of the chat, through a tracer with or without fast paths. */
  async function redisTrace(fastPaths: boolean): Promise<ReadableSpan[]> {
    const exporter = new InMemorySpanExporter();
    const tracing = createTracing({ disabled: false, fastPaths, spanProcessors: [new SimpleSpanProcessor(exporter)], instanceId: 'fast-path-contract' });
    const target = { tracer: tracing.tracer, server: { address: 'redis.internal', port: 6379 }, peer: () => ({ address: '10.0.0.7', port: 6379 }) };
    const chatSpan = tracing.tracer.startSpan('POST /chat_adapter', { kind: SpanKind.SERVER, startTime: spanNow() });
    context.with(trace.setSpan(context.active(), chatSpan), () => {
      endRedisSpan(startRedisSpan(target, { operation: 'EVALSHA', script: 'chatBegin' }));
      const refused = Object.assign(new Error('NOSCRIPT No matching script'), { name: 'ReplyError' });
      endRedisSpan(startRedisSpan(target, { operation: 'PIPELINE', script: 'chatEnd', batchSize: 2 }), refused);
    });
    chatSpan.end(spanNow());
    // The in-memory exporter forgets its spans when it is shut down.
    const spans = exporter.getFinishedSpans();
    await tracing.shutdown();
    return spans;
  }

  it('the same names, kind, parent, attributes and status; times within the parent', async () => {
    const viaFast = await redisTrace(true);
    const viaSdk = await redisTrace(false);
    expect(viaFast.filter((s) => s instanceof TimedSpan)).toHaveLength(2);
    expect(viaSdk.some((s) => s instanceof TimedSpan)).toBe(false);
    expectNested(viaFast);
    expectNested(viaSdk);
    const none = new Set<number>();
    expect(tree(viaSdk, none)).toEqual(tree(viaFast, none));
    expect(names(tree(viaFast, none))).toEqual(['POST /chat_adapter', 'EVALSHA chatBegin', 'PIPELINE chatEnd']);
  });
});
