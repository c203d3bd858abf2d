/**
 * docs/browser-widgets.md#cors: a front-end on another origin may call the chat routes when its origin
 * is listed in CORS_ORIGINS (or is a loopback dev server with `local`); any other origin or path gets
 * no CORS headers, and the decision is logged at debug.
 */
import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { originsWithoutCors } from '../../src/http/cors.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

const WIDGET = 'https://leasing.example.com';
const PREFIX = '/chat-svc';

const preflight = (origin: string, url = '/chat_adapter', requestHeaders = 'content-type, authorization, idempotency-key') => ({
  method: 'OPTIONS' as const,
  url,
  headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders },
});

function noCorsHeaders(res: LightMyRequestResponse) {
  expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
}

describe('CORS with CORS_ORIGINS set to an origin and local', () => {
  const harness = useStubbedService({ CORS_ORIGINS: `${WIDGET}/, local`, ROUTE_PREFIX: PREFIX });

  it.each([
    '/chat_adapter',
    `${PREFIX}/chat_adapter`,
    '/chat_adapter/MTIzNDU2Nzg5MDEyMzQ1Njc4OQ==/stream',
    `${PREFIX}/chat_adapter/1234567890123456789/stop`,
  ])('answers the preflight of %s: 204, the origin echoed, the allowed headers, cached', async (url) => {
    const res = await harness.svc.app.inject(preflight(WIDGET, url));
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe(WIDGET);
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(res.headers['access-control-allow-headers']).toBe('content-type, authorization, idempotency-key, traceparent, last-event-id');
    expect(res.headers['access-control-max-age']).toBe('7200');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(res.headers['vary'])).toMatch(/origin/i);
  });

  it('a chat from the listed origin gets the origin echoed and the headers a front-end reads exposed', async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    const res = await harness.svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers: { origin: WIDGET } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(WIDGET);
    expect(res.headers['access-control-expose-headers']).toBe('server-timing, idempotent-replayed, retry-after, traceresponse');
  });

  it.each(['http://localhost:5173', 'http://127.0.0.1:6080', 'http://localhost', 'http://[::1]:3000'])('local allows the loopback dev server %s', async (origin) => {
    const res = await harness.svc.app.inject(preflight(origin));
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
  });

  it.each([
    'https://evil.example.com',
    'https://leasing.example.com.evil.example',
    'http://leasing.example.com',
    'http://localhost.evil.example',
    'https://localhost:5173',
    'null',
  ])('an origin not on the list (%s) gets no CORS headers: its preflight is a 404, its chat has no Allow-Origin', async (origin) => {
    const before = harness.svc.logs.length;
    const res = await harness.svc.app.inject(preflight(origin));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found' });
    noCorsHeaders(res);
    const logged = harness.svc.logs.slice(before).map((line) => JSON.parse(line) as { level: number; msg: string; allowed?: boolean });
    expect(logged.some((line) => line.level === 20 && line.msg.startsWith('CORS origin not allowed') && line.allowed === false)).toBe(true);
    const chat = await harness.svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers: { origin } });
    noCorsHeaders(chat);
  });

  it('other paths get no CORS, even from a listed origin: /admin, /heartbeat, /openapi.json, a longer chat path', async () => {
    for (const url of ['/admin/handoffs', '/heartbeat', '/openapi.json', '/chat_adapter/a/b/stream', '/chat_adapter//stream', '/chat_adapter/abc/delete']) {
      const res = await harness.svc.app.inject(preflight(WIDGET, url));
      expect(res.statusCode, url).toBe(404);
      noCorsHeaders(res);
    }
    noCorsHeaders(await harness.svc.app.inject({ method: 'GET', url: '/heartbeat', headers: { origin: WIDGET } }));
  });

  it('an OPTIONS without Access-Control-Request-Method is no preflight: 404 in the detail shape', async () => {
    const res = await harness.svc.app.inject({ method: 'OPTIONS', url: '/chat_adapter', headers: { origin: WIDGET } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found' });
    noCorsHeaders(res);
  });
});

describe('CORS without CORS_ORIGINS outside local', () => {
  const harness = useStubbedService();

  it('allows no origin, not even a loopback one', async () => {
    for (const origin of [WIDGET, 'http://localhost:5173']) {
      const res = await harness.svc.app.inject(preflight(origin));
      expect(res.statusCode).toBe(404);
      noCorsHeaders(res);
    }
  });

  it('adds nothing to answers: no Vary: Origin, no Access-Control-*', async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    const res = await harness.svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers: { origin: WIDGET } });
    expect(res.statusCode).toBe(200);
    noCorsHeaders(res);
    expect(res.headers['vary']).toBeUndefined();
  });
});

describe('originsWithoutCors (the start-up warning)', () => {
  it('names each publishable key origin that CORS_ORIGINS does not allow', () => {
    const keys = [{ name: 'widget', origins: [WIDGET, 'http://localhost:5173', 'https://other.example'] }];
    expect(originsWithoutCors(keys, { local: true, origins: [WIDGET] })).toEqual([{ name: 'widget', origin: 'https://other.example' }]);
    expect(originsWithoutCors(keys, { local: false, origins: [] }).map((o) => o.origin)).toEqual([WIDGET, 'http://localhost:5173', 'https://other.example']);
  });
});
