/**
 * RATE_LIMIT_CLIENT_PER_MIN (docs/api.md#rate-limits, issue 23): a client that sends every chat with a new
 * `session_id` (and even a new organisation) is limited too. The client is the caller key's name
 * with CALLER_API_KEYS, otherwise the peer's IP address. With REDIS_URL the counters are shared.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { chatRequest, newSessionId } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startStubbedService, untilRedisReady, type StubbedService } from '../helpers/stubbed-service.ts';

const LIMIT = 4;
const KEY_A = 'client-a-key-0123456789abcdef';
const KEY_B = 'client-b-key-0123456789abcdef';

let nextOrg = 2_000_000_000_000_000_000n;
/** A chat in a session and organisation no other chat used: only the client limit can refuse it. */
const rotating = () => chatRequest({ orgId: String((nextOrg += 1n)), session_id: newSessionId() });

const chat = (svc: StubbedService, options: { ip?: string; key?: string } = {}) =>
  svc.app.inject({
    method: 'POST',
    url: '/chat_adapter',
    payload: rotating(),
    remoteAddress: options.ip ?? '127.0.0.1',
    headers: options.key === undefined ? {} : { authorization: `Bearer ${options.key}` },
  });

function expectRefused(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ detail: 'Too Many Requests' });
  expect(res.headers['ratelimit-limit']).toBe(String(LIMIT));
  expect(res.headers['ratelimit-remaining']).toBe('0');
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.headers['retry-after']).toBe(res.headers['ratelimit-reset']);
}

describe('per client, without caller keys: by peer IP address', () => {
  let svc: StubbedService;
  beforeAll(async () => {
    svc = await startStubbedService({ RATE_LIMIT_CLIENT_PER_MIN: String(LIMIT) });
  });
  afterAll(async () => svc?.close());

  it('answers 4 chats of one address in a minute, each in a new session and organisation, then 429 with nothing called; another address goes on', async () => {
    for (let remaining = LIMIT - 1; remaining >= 0; remaining -= 1) {
      const res = await chat(svc, { ip: '203.0.113.7' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(remaining));
    }
    const engineCalls = svc.stubs.engine.requests.length;
    expectRefused(await chat(svc, { ip: '203.0.113.7' }));
    expect(svc.stubs.engine.requests.length).toBe(engineCalls);
    expect((await chat(svc, { ip: '2001:db8::7' })).statusCode).toBe(200);
  });
});

describe('per client, with caller keys: by the key\'s name, whatever the address', () => {
  let svc: StubbedService;
  beforeAll(async () => {
    svc = await startStubbedService({ RATE_LIMIT_CLIENT_PER_MIN: String(LIMIT), CALLER_API_KEYS: `alpha:${KEY_A},beta:${KEY_B}` });
  });
  afterAll(async () => svc?.close());

  it('limits caller alpha across addresses; caller beta from the same address goes on', async () => {
    for (let i = 0; i < LIMIT; i += 1) expect((await chat(svc, { key: KEY_A, ip: `198.51.100.${i + 1}` })).statusCode).toBe(200);
    expectRefused(await chat(svc, { key: KEY_A, ip: '198.51.100.99' }));
    expect((await chat(svc, { key: KEY_B, ip: '198.51.100.1' })).statusCode).toBe(200);
  });
});

describe('per client, shared through Redis', () => {
  let redis: TestRedis;
  let a: StubbedService;
  let b: StubbedService;
  beforeAll(async () => {
    redis = await startTestRedis();
    const env = { REDIS_URL: redis.url, RATE_LIMIT_CLIENT_PER_MIN: String(LIMIT) };
    [a, b] = await Promise.all([startStubbedService(env), startStubbedService(env)]);
  }, 20_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
  });

  it('counts one client\'s chats on two instances together', async () => {
    const ip = '192.0.2.44';
    // Until both instances' connections are ready, counters would be per instance.
    await untilRedisReady(a, b);
    const statuses = [];
    for (let i = 0; i < LIMIT; i += 1) statuses.push((await chat(i % 2 === 0 ? a : b, { ip })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expectRefused(await chat(a, { ip }));
    expectRefused(await chat(b, { ip }));
  });
});
