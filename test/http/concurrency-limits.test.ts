/**
 * Concurrency ceilings per client and per organisation (docs/api.md#fair-shares): a chat over one
 * gets its own 429 with Retry-After and a detail naming the ceiling, and nothing is called for it;
 * a chat's lease is held until its work ends, also when its caller left (abandoned chats count
 * against the client that sent them), and given back after every ending.
 */
import { request as httpRequest } from 'node:http';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { metricValue } from '../helpers/metric-value.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';

const KEY_A = 'client-a-key-0123456789abcdef';
const KEY_B = 'client-b-key-0123456789abcdef';
const ORG = '1111111111111111111';
const ENGINE_MS = 700;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let svc: StubbedService;
let url: string;
beforeAll(async () => {
  svc = await startStubbedService({
    CALLER_API_KEYS: `widget-a:${KEY_A},widget-b:${KEY_B}`,
    CONCURRENCY_PER_CLIENT: '2',
    CONCURRENCY_PER_ORG: '3',
    RATE_LIMIT_SESSION_PER_MIN: '0',
  });
  svc.stubs.engine.handle(async (_req, res) => {
    await sleep(ENGINE_MS);
    sendJson(res, 200, engineReply());
  });
  url = await svc.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await svc?.close();
});

const payload = (orgId = ORG) => chatRequest({ orgId, session_id: newSessionId() });
const chat = (key: string, orgId = ORG, headers: Record<string, string> = {}) =>
  svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: payload(orgId), headers: { authorization: `Bearer ${key}`, ...headers } });

function expectRefused(res: LightMyRequestResponse, ceiling: 'client' | 'organisation') {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ detail: `Too many chats in flight for this ${ceiling}` });
  expect(res.headers['retry-after']).toBe('1');
}

/** Sends a chat over a real socket and drops the connection as soon as it is written: a caller that left. */
function abandon(key: string, accept = 'application/json'): Promise<void> {
  const { port } = new URL(url);
  const body = JSON.stringify(payload());
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), method: 'POST', path: '/chat_adapter', headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${key}`, 'content-length': Buffer.byteLength(body) } });
    req.on('error', () => {});
    req.end(body, () => {
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 150);
    });
  });
}

describe('concurrency ceilings', () => {
  it('refuses a client over its ceiling at once, calls nothing for it, and lets it in again once a chat ended', async () => {
    const engineCalls = svc.stubs.engine.requests.length;
    const running = [chat(KEY_A), chat(KEY_A)];
    await sleep(150);
    const started = Date.now();
    const refused = await chat(KEY_A);
    expectRefused(refused, 'client');
    expect(Date.now() - started).toBeLessThan(ENGINE_MS);
    // Another client of the same organisation is not held back by it.
    const other = chat(KEY_B);
    for (const res of await Promise.all([...running, other])) expect(res.statusCode).toBe(200);
    expect(svc.stubs.engine.requests.length - engineCalls).toBe(3);
    expect((await chat(KEY_A)).statusCode).toBe(200);
  });

  it('refuses an organisation over its ceiling with its own detail, whichever client sends', async () => {
    const running = [chat(KEY_A), chat(KEY_A), chat(KEY_B)];
    await sleep(150);
    expectRefused(await chat(KEY_B), 'organisation');
    // Another organisation has its own counter.
    const elsewhere = chat(KEY_B, '2222222222222222222');
    for (const res of await Promise.all([...running, elsewhere])) expect(res.statusCode).toBe(200);
    const scrape = await svc.metrics.scrape();
    expect(metricValue(scrape, 'chat_adapter_concurrency_rejections_total{ceiling="organisation"}')).toBe(1);
    expect(metricValue(scrape, 'chat_adapter_concurrency_rejections_total{ceiling="client"}')).toBe(1);
  });

  it('counts chats whose caller left (JSON and stream) until their turn completed, then gives their leases back', async () => {
    const engineCalls = svc.stubs.engine.requests.length;
    await Promise.all([abandon(KEY_A), abandon(KEY_A, 'text/event-stream')]);
    await sleep(100);
    // Both abandoned chats still run (their turns complete, docs/api.md#streamed-replies): the client is full.
    expectRefused(await chat(KEY_A), 'client');
    await sleep(ENGINE_MS + 400);
    expect(svc.stubs.engine.requests.length - engineCalls).toBe(2);
    const after = await Promise.all([chat(KEY_A), chat(KEY_A)]);
    expect(after.map((res) => res.statusCode)).toEqual([200, 200]);
  });

  it('gives the lease back after a streamed answer and after a refusal further on (a bad Idempotency-Key)', async () => {
    const streamed = await chat(KEY_A, ORG, { accept: 'text/event-stream' });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.body).toContain('[DONE]');
    const bad = await chat(KEY_A, ORG, { 'idempotency-key': '' });
    expect(bad.statusCode).toBe(400);
    const both = await Promise.all([chat(KEY_A), chat(KEY_A)]);
    expect(both.map((res) => res.statusCode)).toEqual([200, 200]);
  });
});

describe('without caller keys', () => {
  it('counts the client by its peer address', async () => {
    const plain = await startStubbedService({ CONCURRENCY_PER_CLIENT: '1', CONCURRENCY_PER_ORG: '0', RATE_LIMIT_SESSION_PER_MIN: '0' });
    try {
      plain.stubs.engine.handle(async (_req, res) => {
        await sleep(ENGINE_MS);
        sendJson(res, 200, engineReply());
      });
      const send = (ip: string) => plain.app.inject({ method: 'POST', url: '/chat_adapter', payload: payload(), remoteAddress: ip });
      const first = send('10.0.0.1');
      await sleep(150);
      expectRefused(await send('10.0.0.1'), 'client');
      const [a, b] = await Promise.all([first, send('10.0.0.2')]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    } finally {
      await plain.close();
    }
  });
});

