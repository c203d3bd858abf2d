import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { chatRequest } from '../helpers/fixtures.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { spanText, startTracedService, type TracedService } from '../telemetry/traced-service.ts';

/** docs/api.md#caller-keys through the real service: keys, organisations, and what a caller's name is put on. */
const WEB_KEY = 'web-KEY-aaaaaaaaaaaaaaaaaaaa';
const PARTNER_KEY = 'partner-KEY-bbbbbbbbbbbbbbbbbb';
const ORG = '9876543210987654321';
const OTHER_ORG = '1111111111111111111';
const PREFIX = '/chat-svc';

let svc: TracedService;
beforeAll(async () => {
  svc = await startTracedService({
    CALLER_API_KEYS: `web:${WEB_KEY},partner:${PARTNER_KEY}:${ORG}|T3JnOjc=`,
    ROUTE_PREFIX: PREFIX,
  });
});
afterAll(async () => {
  await svc?.close();
});

const post = (headers: Record<string, string>, payload: unknown = chatRequest(), url = '/chat_adapter') =>
  svc.app.inject({ method: 'POST', url, payload: payload as object, headers });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Runs `send` and asserts that neither the engine nor the GraphQL API (nor anyone) was called. */
async function nothingCalled(send: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  const { engine, graphql, handoff, translate, propertyApi } = svc.stubs;
  const before = [engine, graphql, handoff, translate, propertyApi].map((s) => s.requests.length);
  const res = await send();
  expect([engine, graphql, handoff, translate, propertyApi].map((s) => s.requests.length)).toEqual(before);
  return res;
}

function expect401(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ detail: 'Unauthorized' });
  expect(res.headers['www-authenticate']).toBe('Bearer');
}

describe('POST /chat_adapter with CALLER_API_KEYS set', () => {
  it.each([
    ['no Authorization header', {}],
    ['an unknown key', bearer('unknown-KEY-cccccccccccccccccc')],
    ['a known key with one character changed', bearer(`${WEB_KEY.slice(0, -1)}b`)],
    ['another scheme', { authorization: `Basic ${WEB_KEY}` }],
    ['the scheme alone', { authorization: 'Bearer' }],
    ['the key without a scheme', { authorization: WEB_KEY }],
  ])('is a 401 with WWW-Authenticate: Bearer for %s, and calls nothing', async (_what, headers) => {
    expect401(await nothingCalled(() => post(headers)));
    expect401(await nothingCalled(() => post(headers, chatRequest(), `${PREFIX}/chat_adapter`)));
  });

  it('is checked before the body is read: a malformed or non-JSON body without a key is a 401, not a 400 or 415', async () => {
    expect401(await nothingCalled(() => post({ 'content-type': 'application/json' }, '{"message": ')));
    expect401(await nothingCalled(() => post({ 'content-type': 'text/plain' }, 'hello')));
  });

  it('answers a chat with a known key, under the prefix too; the scheme is case-insensitive', async () => {
    expect((await post(bearer(WEB_KEY))).statusCode).toBe(200);
    expect((await post(bearer(PARTNER_KEY), chatRequest({ orgId: ORG }), `${PREFIX}/chat_adapter`)).statusCode).toBe(200);
    expect((await post({ authorization: `bearer ${WEB_KEY}` })).statusCode).toBe(200);
  });

  it('is a 403 for a key used for an organisation it does not list, and calls nothing', async () => {
    const res = await nothingCalled(() => post(bearer(PARTNER_KEY), chatRequest({ orgId: OTHER_ORG })));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Forbidden' });
    expect((await post(bearer(PARTNER_KEY), chatRequest({ orgId: 'T3JnOjc=' }))).statusCode).toBe(200);
    // A key without a list may post for any organisation.
    expect((await post(bearer(WEB_KEY), chatRequest({ orgId: OTHER_ORG }))).statusCode).toBe(200);
  });

  it('validates the body before the organisation check (an invalid body is a 400, whoever sends it)', async () => {
    const res = await nothingCalled(() => post(bearer(PARTNER_KEY), chatRequest({ orgId: OTHER_ORG, session_id: 'bad' })));
    expect(res.statusCode).toBe(400);
    expect(res.json().detail.message).toContain("'session_id'");
  });

  it.each(['/heartbeat', `${PREFIX}/heartbeat`])('serves GET %s without a key', async (url) => {
    expect((await svc.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });

  // docs/operations.md#metrics: with caller keys set, the metrics need the admin key (none is set here).
  it.each(['/metrics', `${PREFIX}/metrics`])('refuses GET %s without the admin key', async (url) => {
    expect((await svc.app.inject({ method: 'GET', url, headers: bearer(WEB_KEY) })).statusCode).toBe(401);
  });
});

describe("the caller's name (never the key)", () => {
  it('is on the request log lines, the server span and the request metrics', async () => {
    const res = await post(bearer(PARTNER_KEY), chatRequest({ orgId: ORG }));
    expect(res.statusCode).toBe(200);
    const traceId = res.json().trace_id as string;
    const lines = svc.logs.join('').split('\n').filter((l) => l.includes(traceId)).map((l) => JSON.parse(l) as Record<string, unknown>);
    const completed = lines.find((l) => l.msg === 'request completed');
    expect(completed).toMatchObject({ caller: 'partner', status: 200 });

    const spans = await svc.trace(traceId);
    const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
    expect(server.attributes['chat_adapter.caller']).toBe('partner');

    const forbidden = await post(bearer(PARTNER_KEY), chatRequest({ orgId: OTHER_ORG }));
    const scrape = await svc.metrics.scrape();
    expect(scrape).toMatch(/chat_adapter_http_request_duration_seconds_count\{method="POST",route="\/chat_adapter",status_code="200",mode="json",caller="partner"\} [1-9]/);
    expect(scrape).toMatch(/chat_adapter_http_request_duration_seconds_count\{method="POST",route="\/chat_adapter",status_code="403",mode="json",caller="partner"\} [1-9]/);
    // An unauthenticated request has no caller.
    expect(scrape).toMatch(/chat_adapter_http_request_duration_seconds_count\{method="POST",route="\/chat_adapter",status_code="401",mode="json"\} [1-9]/);
    expect(forbidden.statusCode).toBe(403);

    const everything = svc.logs.join('') + spanText(svc.exporter.getFinishedSpans()) + scrape;
    for (const key of [WEB_KEY, PARTNER_KEY]) expect(everything).not.toContain(key);
  });
});

describe('without CALLER_API_KEYS', () => {
  let open: StubbedService | undefined;
  let local: StubbedService | undefined;
  afterAll(async () => {
    await Promise.all([open?.close(), local?.close()]);
  });

  it('accepts chats without a key and warns once at start-up outside local', async () => {
    open = await startStubbedService({});
    expect((await open.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() })).statusCode).toBe(200);
    const warnings = open.logs.filter((l) => l.includes('CALLER_API_KEYS is not set'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, environment: 'qa' });
  });

  it('does not warn in local', async () => {
    local = await startStubbedService({ ENVIRONMENT: 'local' });
    expect(local.logs.filter((l) => l.includes('CALLER_API_KEYS'))).toEqual([]);
  });
});
