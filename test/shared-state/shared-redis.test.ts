import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, newSessionId } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';

let redis: TestRedis;
let a: StubbedService;
let b: StubbedService;
beforeAll(async () => {
  redis = await startTestRedis();
  [a, b] = await Promise.all([startStubbedService({ REDIS_URL: redis.url }), startStubbedService({ REDIS_URL: redis.url })]);
  // Both caches connect before the first request (no offline queue: an early request is a miss).
  await new Promise((r) => setTimeout(r, 200));
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await redis?.stop();
});

const chat = (svc: StubbedService, payload: Record<string, unknown>) =>
  svc.app.inject({ method: 'POST', url: '/chat_adapter', payload });

describe('two instances sharing one Redis', () => {
  it('a question answered by one instance is a cache hit on the other', async () => {
    const session_id = newSessionId();
    const message = 'Are cats and dogs allowed in the apartments?';
    const first = await chat(a, chatRequest({ session_id, message }));
    expect(first.statusCode).toBe(200);
    const engineCallsOnB = b.stubs.engine.requests.length;
    const second = await chat(b, chatRequest({ session_id, message }));
    expect(second.statusCode).toBe(200);
    expect(b.stubs.engine.requests.length).toBe(engineCallsOnB);
    expect(second.json().response).toBe(first.json().response);
    expect(second.json().latency.service_engine_latency).toBe(0);
  });

  it('keeps serving when Redis goes away, and uses it again when it is back', async () => {
    await redis.stop();
    const session_id = newSessionId();
    const res = await chat(a, chatRequest({ session_id, message: 'Is there a package room in the lobby?' }));
    expect(res.statusCode).toBe(200);
    expect(a.logs.some((line) => line.includes('session cache unavailable'))).toBe(true);
    await redis.start();
    await new Promise((r) => setTimeout(r, 1500)); // reconnect happens at most 1 s apart
    const message = 'Is there a bike storage room in the garage?';
    await chat(a, chatRequest({ session_id, message }));
    const before = b.stubs.engine.requests.length;
    await chat(b, chatRequest({ session_id, message }));
    expect(b.stubs.engine.requests.length).toBe(before);
  });
});
