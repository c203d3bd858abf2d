import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CALLER_API_KEY, chatRequest, engineReply } from '../helpers/fixtures.ts';
import { GRAPHQL_AUTHORIZATION, GRAPHQL_ENV_API_KEY, graphqlStubHandler, startStubbedService, useStubbedService } from '../helpers/stubbed-service.ts';
import { sendJson } from '../helpers/stub-server.ts';

const harness = useStubbedService({ ENGINE_TIMEOUT_MS: '400', GRAPHQL_TIMEOUT_MS: '400' });
/** clientMessageKey -> id, as the GraphQL stub stored them. */
const storedIds = new Map<string, string>();
beforeAll(() => {
  harness.svc.stubs.graphql.handle(graphqlStubHandler(storedIds));
});
afterEach(() => {
  harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
  harness.svc.stubs.graphql.handle(graphqlStubHandler(storedIds));
});

const chat = (payload: Record<string, unknown> = chatRequest(), headers: Record<string, string> = {}) => harness.chat(payload, headers);

type GraphqlBody = { query: string; variables: { input: Record<string, unknown> } };
const graphqlCalls = (from = 0) => harness.svc.stubs.graphql.requests.slice(from).map((r) => ({ ...(r.body as GraphqlBody), headers: r.headers }));

describe('the happy path over real sockets', () => {
  it('stores question then answer, and message_id is the stored answer id', async () => {
    const before = harness.svc.stubs.graphql.requests.length;
    const res = await chat();
    expect(res.statusCode).toBe(200);
    const calls = graphqlCalls(before).filter((c) => c.query.includes('createServiceMessage'));
    expect(calls.map((c) => c.variables.input['role'])).toEqual(['USER', 'ASSISTANT']);
    const [question, answer] = calls;
    expect(question?.variables.input['content']).toBe('What are your office hours?');
    expect(answer?.variables.input['content']).toBe(res.json().response);
    expect(String(question?.variables.input['clientMessageKey'])).toMatch(/^[0-9a-f-]{36}:question$/);
    expect(answer?.variables.input['traceId']).toBe(res.json().trace_id);
    expect(res.json().message_id).toBe(storedIds.get(String(answer?.variables.input['clientMessageKey'])));
    expect(res.json().message_id).not.toBe(storedIds.get(String(question?.variables.input['clientMessageKey'])));
  });

  it('sends the three GraphQL headers, with the trace and the JSON content headers, and never forwards the caller key elsewhere', async () => {
    const before = harness.svc.stubs.graphql.requests.length;
    const res = await chat();
    const calls = graphqlCalls(before);
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) {
      expect(call.headers['authorization']).toBe(GRAPHQL_AUTHORIZATION);
      expect(call.headers['x-api-key']).toBe(GRAPHQL_ENV_API_KEY);
      expect(call.headers['x-graphql-api-key']).toBe(CALLER_API_KEY);
      expect(call.headers['traceparent']).toMatch(new RegExp(`^00-${res.json().trace_id}-[0-9a-f]{16}-0[01]$`));
      expect(call.headers['content-type']).toBe('application/json');
      expect(call.headers['accept']).toContain('application/json');
    }
    for (const other of [harness.svc.stubs.engine, harness.svc.stubs.handoff, harness.svc.stubs.translate]) {
      expect(JSON.stringify(other.requests)).not.toContain(CALLER_API_KEY);
      expect(JSON.stringify(other.requests)).not.toContain(GRAPHQL_AUTHORIZATION);
    }
  });

  it('forwards only the last 4 history messages, in order', async () => {
    const history = Array.from({ length: 7 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` }));
    await chat(chatRequest({ history }));
    expect((harness.svc.stubs.engine.requests.at(-1)?.body as { history: unknown[] }).history).toEqual(history.slice(-4));
  });

  it('carries a W3C traceparent to the engine, continuing the caller trace', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const res = await chat(chatRequest(), { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(res.json().trace_id).toBe(traceId);
    expect(harness.svc.stubs.engine.requests.at(-1)?.headers['traceparent']).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-0[01]$`));
  });

  it('reports latency in ms per step and as Server-Timing', async () => {
    const res = await chat();
    const { latency } = res.json();
    expect(Object.keys(latency.steps)).toEqual([
      'waitForTurn', 'receiveRequest', 'validateRequest', 'loadSession', 'chooseLanguage', 'trimHistory', 'reuseCachedReply', 'askEngine',
      'answerFromPropertyApi', 'formatReply', 'translateReply', 'extractContact', 'decideHandoff', 'updateConversation', 'storeQuestion', 'startHandoff',
      'storeAnswer', 'rememberTurn', 'assembleResponse',
    ]);
    expect(latency.service_engine_latency).toBe(latency.steps.askEngine);
    // Each figure is rounded on its own: a sum may differ from the sum of its rounded parts by 0.001.
    expect(latency.create_message_latency).toBeCloseTo(latency.steps.storeQuestion + latency.steps.storeAnswer, 2);
    expect(latency.chat_adapter_latency).toBeGreaterThanOrEqual(latency.service_engine_latency);
    expect(res.headers['server-timing']).toMatch(/askEngine;dur=\d+(\.\d{1,3})?, .*total;dur=/);
  });

  it('rounds every latency figure to 3 decimals; header, body and log line give the same figures', async () => {
    const res = await chat();
    const { latency, trace_id: traceId } = res.json();
    const figures: Record<string, number> = { ...latency.steps, total: latency.chat_adapter_latency };
    for (const key of ['service_engine_latency', 'chat_adapter_latency', 'extract_and_update_contact_latency', 'create_message_latency']) {
      expect(String(latency[key]), key).toMatch(/^\d+(\.\d{1,3})?$/);
    }
    for (const [name, ms] of Object.entries(figures)) expect(String(ms), name).toMatch(/^\d+(\.\d{1,3})?$/);
    expect(res.headers['server-timing']).toBe(Object.entries(figures).map(([name, ms]) => `${name};dur=${ms}`).join(', '));
    const line = harness.svc.logs
      .flatMap((chunk) => chunk.split('\n'))
      .filter((l) => l.includes('"request completed"') && l.includes(traceId))
      .map((l) => JSON.parse(l) as { ms: number; steps: Record<string, number> });
    expect(line).toHaveLength(1);
    // One span for both: the log line's ms is the body's chat_adapter_latency, not a later reading.
    expect(line[0]!.ms).toBe(latency.chat_adapter_latency);
    expect(line[0]!.steps).toEqual(latency.steps);
  });
});

describe('downstream failures', () => {
  const expect503 = async (party: string) => {
    const res = await chat();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: `${party} unavailable` });
  };

  it('engine answering 5xx -> 503, then recovery', async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 502, { error: 'bad gateway' }));
    await expect503('engine');
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    expect((await chat()).statusCode).toBe(200);
  });

  it('engine too slow -> 503 within the timeout', async () => {
    harness.svc.stubs.engine.handle(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 1500));
      sendJson(res, 200, engineReply());
    });
    const started = Date.now();
    await expect503('engine');
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('engine dropping the connection -> 503', async () => {
    harness.svc.stubs.engine.handle((_req, res) => {
      res.socket?.destroy();
    });
    await expect503('engine');
  });

  it.each([
    ['not JSON', 'this is not json'],
    ['out of contract', JSON.stringify({ response: 'hi', intent: 'x' })],
    ['unknown retrieval_type', JSON.stringify(engineReply({ retrieval_type: 'magic' as never }))],
  ])('engine answering %s -> 503', async (_name, raw) => {
    harness.svc.stubs.engine.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(raw);
    });
    await expect503('engine');
  });

  it('GraphQL down -> 503 after bounded retries, then recovery', async () => {
    const before = harness.svc.stubs.graphql.requests.length;
    harness.svc.stubs.graphql.handle((_req, res) => sendJson(res, 500, { errors: [{ message: 'db down' }] }));
    await expect503('graphql');
    expect(harness.svc.stubs.graphql.requests.length - before).toBe(3);
    harness.svc.stubs.graphql.handle(graphqlStubHandler());
    expect((await chat()).statusCode).toBe(200);
  });

  it('GraphQL answering errors -> 503', async () => {
    harness.svc.stubs.graphql.handle((_req, res) => sendJson(res, 200, { errors: [{ message: 'nope' }], data: null }));
    await expect503('graphql');
  });

  it('an unreachable engine -> 503 and the service keeps serving', async () => {
    const dead = await startStubbedService({ ENGINE_URL: 'http://127.0.0.1:9' });
    try {
      const res = await dead.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: 'engine unavailable' });
      expect((await dead.app.inject({ method: 'GET', url: '/heartbeat' })).statusCode).toBe(200);
    } finally {
      await dead.close();
    }
  });
});
