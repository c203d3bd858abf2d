import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import packageJson from '../../package.json' with { type: 'json' };
import { chatSteps } from '../../steps/chat-pipeline.ts';
import { WAIT_FOR_TURN } from '../../src/http/chat-admission.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { graphqlStubHandler } from '../helpers/stubbed-service.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { childrenOf, spanNamed, startTracedService, waitFor, type TracedService } from './traced-service.ts';

let svc: TracedService;
beforeAll(async () => {
  svc = await startTracedService();
});
afterAll(async () => {
  await svc.close();
});
beforeEach(() => {
  svc.exporter.reset();
  svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
  svc.stubs.graphql.handle(graphqlStubHandler());
  svc.stubs.translate.handle((req, res) => sendJson(res, 200, { translated_text: `[es] ${(req.body as { text: string }).text}` }));
  svc.stubs.handoff.handle((_req, res) => sendJson(res, 202, { accepted: true }));
});

async function chat(overrides: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(overrides), headers });
  const traceId = (res.json() as { trace_id?: string; detail?: { trace_id?: string } });
  return { res, traceId: traceId.trace_id ?? traceId.detail?.trace_id ?? '' };
}

describe('span tree of one chat', () => {
  it('has a SERVER span, a child per step in order, and CLIENT spans under the steps that call out', async () => {
    const { res, traceId } = await chat();
    expect(res.statusCode).toBe(200);
    const spans = await svc.trace(traceId);

    const server = spanNamed(spans, 'POST /chat_adapter');
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.parentSpanContext).toBeUndefined();
    expect(server.resource.attributes['service.version']).toBe(packageJson.version);
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/chat_adapter',
      'url.path': '/chat_adapter',
      'http.response.status_code': 200,
    });

    const steps = childrenOf(spans, server).sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    // The wait for the session's turn first (before the pipeline), then a child per step.
    expect(steps.map((s) => s.name)).toEqual([WAIT_FOR_TURN, ...chatSteps.map((step) => step.name)]);
    for (const step of steps) expect(step.kind).toBe(SpanKind.INTERNAL);

    const engineCall = childrenOf(spans, spanNamed(spans, 'askEngine'));
    expect(engineCall).toHaveLength(1);
    // The engine call is the GenAI client span (operation `chat`; the engine names no model).
    expect(engineCall[0]!.name).toBe('chat');
    expect(engineCall[0]!.kind).toBe(SpanKind.CLIENT);
    const enginePort = Number(new URL(svc.stubs.engine.url).port);
    expect(engineCall[0]!.attributes).toMatchObject({
      'http.request.method': 'POST',
      'url.template': '/query',
      'url.full': `${svc.stubs.engine.url}/query`,
      'server.address': '127.0.0.1',
      'server.port': enginePort,
      'server.service.name': 'engine',
      'http.response.status_code': 200,
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'engine',
      'gen_ai.conversation.id': '1111111111111111111',
    });
    expect(engineCall[0]!.attributes).not.toHaveProperty('peer.service');

    for (const [step, role] of [['storeQuestion', 'question'], ['storeAnswer', 'answer']] as const) {
      const calls = childrenOf(spans, spanNamed(spans, step));
      expect(calls.map((s) => s.name), role).toEqual(['mutation CreateServiceMessage']);
      expect(calls[0]!.attributes).toMatchObject({
        'server.service.name': 'graphql',
        'graphql.operation.type': 'mutation',
        'graphql.operation.name': 'CreateServiceMessage',
        'url.template': '/graphql',
        'http.response.status_code': 200,
        'chat_adapter.attempts': 1,
      });
    }
  });

  it('puts the answer classification on the askEngine span, the GenAI attributes on the engine call only', async () => {
    const { traceId } = await chat();
    const askEngine = spanNamed(await svc.trace(traceId), 'askEngine');
    expect(askEngine.attributes).not.toHaveProperty('gen_ai.operation.name');
    expect(askEngine.attributes).toMatchObject({
      'chat_adapter.intent': 'office_hours',
      'chat_adapter.sub_intent': 'office_hours',
      'chat_adapter.retrieval_type': 'fixed',
      'chat_adapter.reply_source': 'engine',
    });
    expect(askEngine.attributes).not.toHaveProperty('gen_ai.input.messages');
  });

  it('continues an incoming traceparent and sends each CLIENT span as the downstream parent', async () => {
    const incomingTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const incomingSpan = '00f067aa0ba902b7';
    const { res, traceId } = await chat({}, { traceparent: `00-${incomingTrace}-${incomingSpan}-01` });
    expect(res.json().trace_id).toBe(incomingTrace);
    expect(traceId).toBe(incomingTrace);
    const spans = await svc.trace(incomingTrace);
    expect(spanNamed(spans, 'POST /chat_adapter').parentSpanContext?.spanId).toBe(incomingSpan);

    const engineSpan = spanNamed(spans, 'chat');
    expect(svc.stubs.engine.requests.at(-1)!.headers['traceparent']).toBe(`00-${incomingTrace}-${engineSpan.spanContext().spanId}-01`);
    const graphqlSpans = spans.filter((s) => s.name === 'mutation CreateServiceMessage').map((s) => s.spanContext().spanId);
    const graphqlParents = svc.stubs.graphql.requests.slice(-2).map((r) => String(r.headers['traceparent']).split('-')[2]);
    expect(graphqlParents.sort()).toEqual(graphqlSpans.sort());
  });

  it('marks the failing step, its client span and the server span as errors (GraphQL down: 503)', async () => {
    svc.stubs.graphql.handle((_req, res) => sendJson(res, 500, { errors: [{ message: 'down' }] }));
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    expect(res.statusCode).toBe(503);
    const server = await waitFor(() => svc.exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER));
    const spans = await svc.trace(server.spanContext().traceId);

    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.attributes['http.response.status_code']).toBe(503);
    const storeQuestion = spanNamed(spans, 'storeQuestion');
    expect(storeQuestion.status.code).toBe(SpanStatusCode.ERROR);
    expect(storeQuestion.events.map((e) => e.name)).toContain('exception');
    const mutation = childrenOf(spans, storeQuestion);
    expect(mutation).toHaveLength(1);
    expect(mutation[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(mutation[0]!.attributes).toMatchObject({ 'chat_adapter.attempts': 3, 'error.type': 'status_500', 'http.response.status_code': 500 });
    expect(mutation[0]!.events.filter((e) => e.name === 'attempt failed')).toHaveLength(3);
    // Steps after the failure never ran.
    expect(spans.some((s) => s.name === 'storeAnswer')).toBe(false);
    expect(spanNamed(spans, 'askEngine').status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records a failed translation on its client spans while the step and the chat succeed', async () => {
    svc.stubs.translate.handle((_req, res) => sendJson(res, 500, { error: 'down' }));
    const { res, traceId } = await chat({ spanish_toggle: true });
    expect(res.statusCode).toBe(200);
    const spans = await svc.trace(traceId);
    const translateStep = spanNamed(spans, 'translateReply');
    expect(translateStep.status.code).toBe(SpanStatusCode.UNSET);
    const calls = childrenOf(spans, translateStep);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.name).toBe('POST /translate');
      expect(call.status.code).toBe(SpanStatusCode.ERROR);
      expect(call.attributes).toMatchObject({ 'server.service.name': 'translate', 'error.type': 'status_500' });
    }
    const sent = svc.stubs.translate.requests.slice(-calls.length).map((r) => r.headers['traceparent']);
    expect(sent.sort()).toEqual(calls.map((c) => `00-${traceId}-${c.spanContext().spanId}-01`).sort());
  });

  it('a 400 is not a server error: the server span has the status and the body the same trace id', async () => {
    const { res, traceId } = await chat({ message: '    ' });
    expect(res.statusCode).toBe(400);
    const spans = await svc.trace(traceId);
    const server = spanNamed(spans, 'POST /chat_adapter');
    expect(server.attributes['http.response.status_code']).toBe(400);
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(spanNamed(spans, 'validateRequest').status.code).toBe(SpanStatusCode.ERROR);
  });

  it('links each background handoff delivery, a trace of its own, to the chat that asked for it', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    svc.stubs.handoff.handle(async (_req, res) => {
      await held;
      sendJson(res, 202, { accepted: true });
    });
    svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ intent: 'support', sub_intent: 'agent_hand_off' })));
    const before = svc.stubs.handoff.requests.length;
    const { res, traceId } = await chat();
    expect(res.json().agent_handoff).toEqual({ requested: true, reason: 'agent_hand_off' });
    const spans = await svc.trace(traceId);
    release();

    const delivered = await waitFor(() => svc.stubs.handoff.requests[before]);
    const startHandoff = spanNamed(spans, 'startHandoff');
    const handoffSpan = await waitFor(() =>
      svc.exporter.getFinishedSpans().find((s) => s.name === 'POST /handoff' && s.links.some((l) => l.context.traceId === traceId)),
    );
    // Its own trace (an attempt may come hours later): a root span, linked to the chat's startHandoff span.
    expect(handoffSpan.spanContext().traceId).not.toBe(traceId);
    expect(handoffSpan.parentSpanContext).toBeUndefined();
    expect(handoffSpan.links.map((l) => l.context.spanId)).toEqual([startHandoff.spanContext().spanId]);
    expect(delivered.headers['traceparent']).toBe(`00-${handoffSpan.spanContext().traceId}-${handoffSpan.spanContext().spanId}-01`);
    expect((delivered.body as { trace_id: string }).trace_id).toBe(traceId);
    expect(handoffSpan.attributes).toMatchObject({
      'server.service.name': 'handoff',
      'http.response.status_code': 202,
      'chat_adapter.handoff_id': (delivered.body as { handoff_id: string }).handoff_id,
    });
  });

  it('marks a refused handoff as dead-lettered on its delivery span, with ids and reason only', async () => {
    svc.stubs.handoff.handle((_req, res) => sendJson(res, 422, { error: 'bad' }));
    svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ intent: 'support', sub_intent: 'agent_hand_off' })));
    const { traceId } = await chat();
    const refused = await waitFor(
      () => svc.exporter.getFinishedSpans().find((s) => s.name === 'POST /handoff' && s.links.some((l) => l.context.traceId === traceId)),
      5_000,
    );
    expect(refused.status.code).toBe(SpanStatusCode.ERROR);
    const event = refused.events.find((e) => e.name === 'handoff dead-lettered')!;
    expect(Object.keys(event.attributes ?? {}).sort()).toEqual(['chat_adapter.handoff_id', 'reason']);
    expect(event.attributes?.['reason']).toBe('status_422');
    await waitFor(() => (svc.logs.some((l) => l.includes('"handoff dead-lettered"') && l.includes(traceId)) ? true : undefined), 5_000);
  });

  it('names a property API call by its path template: no query string in the span', async () => {
    svc.stubs.propertyApi.handle((_req, res) => sendJson(res, 200, { units: [] }));
    await svc.deps.propertyApi.units('1234567890123456789');
    const span = await waitFor(() => svc.exporter.getFinishedSpans().find((s) => s.name === 'GET /api/v1/units'));
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toMatchObject({
      'url.template': '/api/v1/units',
      'url.full': `${svc.stubs.propertyApi.url}/api/v1/units`,
      'server.service.name': 'propertyApi',
      'http.response.status_code': 200,
    });
    expect(JSON.stringify(span.attributes)).not.toContain('propertyId');
    const sent = svc.stubs.propertyApi.requests.at(-1)!;
    expect(sent.path).toBe('/api/v1/units?propertyId=1234567890123456789');
    expect(sent.headers['traceparent']).toBe(`00-${span.spanContext().traceId}-${span.spanContext().spanId}-01`);
  });
});
