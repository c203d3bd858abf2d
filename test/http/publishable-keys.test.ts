/**
 * docs/browser-widgets.md#publishable-keys through the real service: a `pk_` key counts only from one
 * of its origins, only for its organisation and properties, never for /admin; its name is the client
 * of rate limits and logs; secret caller keys go on working beside it.
 */
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { useStubbedService, type StubbedServiceHandle } from '../helpers/stubbed-service.ts';

const ORG = '9876543210987654321';
const PROPERTY = '1234567890123456789';
const OTHER_PROPERTY = '5555555555555555555';
const WIDGET_ORIGIN = 'https://leasing.example.com';
const PK = 'pk_live_leasing_widget_4f2a9c';
const SECRET_KEY = 'backend-KEY-aaaaaaaaaaaaaaaaaa';
const ADMIN_KEY = 'admin-KEY-bbbbbbbbbbbbbbbbbbbb';
const PREFIX = '/chat-svc';
const PUBLISHABLE_KEYS = JSON.stringify([
  { name: 'leasing-widget', key: PK, origins: [WIDGET_ORIGIN, 'http://localhost:5173'], orgId: ORG, propertyIds: [PROPERTY, 'UHJvcDo3'] },
]);

function expect401(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ detail: 'Unauthorized' });
  expect(res.headers['www-authenticate']).toBe('Bearer');
}

function chatWith(harness: StubbedServiceHandle, headers: Record<string, string>, body: object = chatRequest(), url = '/chat_adapter') {
  harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
  return harness.svc.app.inject({ method: 'POST', url, payload: body, headers });
}

const pk = (origin?: string) => ({ authorization: `Bearer ${PK}`, ...(origin === undefined ? {} : { origin }) });

describe('publishable keys beside secret caller keys', () => {
  const harness = useStubbedService({
    PUBLISHABLE_KEYS,
    CALLER_API_KEYS: `backend:${SECRET_KEY}`,
    ADMIN_API_KEY: ADMIN_KEY,
    CORS_ORIGINS: WIDGET_ORIGIN,
    ROUTE_PREFIX: PREFIX,
  });

  it('answers a chat with the key from one of its origins, under the prefix too; the key\'s name is on the log lines', async () => {
    const res = await chatWith(harness, pk(WIDGET_ORIGIN));
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(WIDGET_ORIGIN);
    const traceId = res.json().trace_id as string;
    const line = harness.svc.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['trace_id'] === traceId && l['msg'] === 'request completed');
    expect(line?.['caller']).toBe('leasing-widget');
    expect(harness.svc.logs.join('\n')).not.toContain(PK);
    expect((await chatWith(harness, pk('http://localhost:5173'), chatRequest({ propertyId: 'UHJvcDo3' }), `${PREFIX}/chat_adapter`)).statusCode).toBe(200);
  });

  it.each([
    ['no Origin', pk()],
    ['another origin', pk('https://copycat.example.com')],
    ['the origin with another scheme', pk('http://leasing.example.com')],
    ['the origin with a path', pk(`${WIDGET_ORIGIN}/chat`)],
    ['an unknown pk_ key', { authorization: 'Bearer pk_live_not_a_key_0000000', origin: WIDGET_ORIGIN }],
    ['the key with one character changed', { authorization: `Bearer ${PK.slice(0, -1)}d`, origin: WIDGET_ORIGIN }],
  ])('is a 401 with WWW-Authenticate for %s, and calls nothing', async (_what, headers) => {
    const { engine, graphql } = harness.svc.stubs;
    const before = [engine.requests.length, graphql.requests.length];
    expect401(await chatWith(harness, headers));
    expect([engine.requests.length, graphql.requests.length]).toEqual(before);
  });

  it('is a 403 for another organisation or another property, and calls nothing', async () => {
    const { engine } = harness.svc.stubs;
    const before = engine.requests.length;
    for (const body of [chatRequest({ orgId: '1111111111111111111' }), chatRequest({ propertyId: OTHER_PROPERTY })]) {
      const res = await chatWith(harness, pk(WIDGET_ORIGIN), body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: 'Forbidden' });
    }
    expect(engine.requests.length).toBe(before);
  });

  it('is never valid for /admin routes, from any origin', async () => {
    expect401(await harness.svc.app.inject({ method: 'GET', url: '/admin/handoffs?status=dead', headers: pk(WIDGET_ORIGIN) }));
    expect((await harness.svc.app.inject({ method: 'GET', url: '/admin/handoffs?status=dead', headers: { authorization: `Bearer ${ADMIN_KEY}` } })).statusCode).toBe(200);
  });

  it('secret caller keys keep working without an Origin, for any property; no key at all is a 401', async () => {
    expect((await chatWith(harness, { authorization: `Bearer ${SECRET_KEY}` }, chatRequest({ propertyId: OTHER_PROPERTY }))).statusCode).toBe(200);
    expect401(await chatWith(harness, { origin: WIDGET_ORIGIN }));
  });
});

describe('publishable keys alone (no CALLER_API_KEYS)', () => {
  const harness = useStubbedService({ PUBLISHABLE_KEYS, RATE_LIMIT_CLIENT_PER_MIN: '2' });

  it('every chat needs a key: none is a 401, the publishable one from its origin is a 200', async () => {
    expect401(await chatWith(harness, {}));
    expect((await chatWith(harness, pk(WIDGET_ORIGIN))).statusCode).toBe(200);
  });

  it('the key is limited as one client (RATE_LIMIT_CLIENT_PER_MIN), across sessions', async () => {
    // The first chat of this service was in the test above: one more passes, then 429.
    const session = (n: number) => chatRequest({ session_id: `${'0'.repeat(31)}${n}` });
    expect((await chatWith(harness, pk(WIDGET_ORIGIN), session(1))).statusCode).toBe(200);
    const limited = await chatWith(harness, pk('http://localhost:5173'), session(2));
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});
