/**
 * docs/api.md#trace-id-header: every answer carries `traceresponse: 00-<trace-id>-<span-id>-<flags>`,
 * whose trace id is the body's `trace_id` (where the body has one) and continues an incoming
 * `traceparent`: 2xx, 4xx (400, 401, 404, 415), 5xx (an engine that is down), a 503 while shutting
 * down, a preflight and a streamed answer.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceIdOf } from '../../src/http/trace-response.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { listenOnLoopback, postChat } from './stream-helpers.ts';

const TRACE_RESPONSE = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/;
const KEY = 'trace-test-KEY-aaaaaaaaaaaa';
const TRACEPARENT_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** The trace id of an answer's `traceresponse`, checked for its form. */
function traceIdIn(headers: Record<string, unknown>): string {
  const value = headers['traceresponse'];
  expect(value, 'traceresponse header').toMatch(TRACE_RESPONSE);
  return traceIdOf(String(value))!;
}

let svc: StubbedService;
let base: string;
beforeAll(async () => {
  svc = await startStubbedService({ CALLER_API_KEYS: `web:${KEY}`, CORS_ORIGINS: 'https://widget.example' });
  base = await listenOnLoopback(svc.app);
});
afterAll(async () => {
  await svc?.close();
});

const auth = { authorization: `Bearer ${KEY}` };

describe('the trace id header on every kind of answer', () => {
  it('200: the same id as the body\'s trace_id; an incoming traceparent is continued', async () => {
    svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers: auth });
    expect(res.statusCode).toBe(200);
    expect(traceIdIn(res.headers)).toBe(res.json().trace_id);
    const continued = await svc.app.inject({
      method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers: { ...auth, traceparent: `00-${TRACEPARENT_ID}-00f067aa0ba902b7-01` },
    });
    expect(traceIdIn(continued.headers)).toBe(TRACEPARENT_ID);
    expect(continued.headers['traceresponse']).toMatch(/-01$/);
  });

  it('400 (the id in the body too), 401, 404 and 415', async () => {
    const bad = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest({ session_id: 'nope' }), headers: auth });
    expect(bad.statusCode).toBe(400);
    expect(traceIdIn(bad.headers)).toBe(bad.json().detail.trace_id);
    const unauthorised = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    expect(unauthorised.statusCode).toBe(401);
    traceIdIn(unauthorised.headers);
    const missing = await svc.app.inject({ method: 'GET', url: '/no/such/path' });
    expect(missing.statusCode).toBe(404);
    traceIdIn(missing.headers);
    const text = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: 'hello', headers: { ...auth, 'content-type': 'text/plain' } });
    expect(text.statusCode).toBe(415);
    traceIdIn(text.headers);
  });

  it('503 when the engine is down: the id in the header is the one in the log line of the failure', async () => {
    svc.stubs.engine.handle((_req, res) => sendJson(res, 500, { error: 'boom' }));
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers: auth });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: 'engine unavailable' });
    const id = traceIdIn(res.headers);
    expect(svc.logs.some((line) => line.includes(`"trace_id":"${id}"`) && line.includes('"status":503'))).toBe(true);
  });

  it('a streamed answer carries it in its head, the same id as the data-chat part\'s trace_id', async () => {
    svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    const answer = await postChat(base, chatRequest(), { headers: auth });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    const chat = answer.parts.find((p) => p.part['type'] === 'data-chat')?.part['data'] as { trace_id: string } | undefined;
    expect(traceIdIn(answer.headers)).toBe(chat?.trace_id);
  });

  it('a CORS preflight and GET /heartbeat carry one too', async () => {
    const preflight = await svc.app.inject({
      method: 'OPTIONS', url: '/chat_adapter', headers: { origin: 'https://widget.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    traceIdIn(preflight.headers);
    traceIdIn((await svc.app.inject({ method: 'GET', url: '/heartbeat' })).headers);
  });
});

describe('the trace id header in the OpenAPI document', () => {
  it('is documented on every status of POST /chat_adapter', async () => {
    const doc = (await svc.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, { post: { responses: Record<string, { headers?: Record<string, unknown> }> } }>;
    };
    const responses = doc.paths['/chat_adapter']!.post.responses;
    expect(Object.keys(responses).length).toBeGreaterThan(5);
    for (const [status, response] of Object.entries(responses)) expect(Object.keys(response.headers ?? {}), status).toContain('traceresponse');
  });
});

describe('the trace id header while shutting down', () => {
  it('a request reaching a closing server gets 503 with its traceresponse', async () => {
    const closing = await startStubbedService();
    await closing.app.ready();
    await closing.close();
    const server = createServer((req, res) => closing.app.routing(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/chat_adapter`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chatRequest()),
      });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ detail: 'Service shutting down' });
      expect(res.headers.get('traceresponse')).toMatch(TRACE_RESPONSE);
    } finally {
      server.close();
    }
  });
});
