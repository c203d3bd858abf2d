/**
 * `GET /ready` against a real redis-server that is taken away and brought back, while
 * `/heartbeat` (liveness) keeps answering 200 whatever happens downstream.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readinessRoute } from '../../src/http/readiness.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { startTracedService, type TracedService } from '../telemetry/traced-service.ts';

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('GET /ready with REDIS_URL', () => {
  let redis: TestRedis;
  let svc: StubbedService;
  beforeAll(async () => {
    redis = await startTestRedis();
    svc = await startStubbedService({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await svc?.close();
    await redis?.stop();
  });
  const get = (url: string) => svc.app.inject({ method: 'GET', url });

  it('is ready while Redis answers', async () => {
    await eventually(async () => (await get('/ready')).statusCode === 200, 5_000);
    expect((await get('/ready')).json()).toEqual({ ready: true, checks: { 'handoff outbox': 'ok', redis: 'ok' } });
  });

  it('stays ready, Redis degraded, while Redis is down after it had answered (chats go on per instance); ok again when it is back', async () => {
    await redis.stop();
    const down = await get('/ready');
    expect(down.statusCode).toBe(200);
    expect(down.json()).toEqual({ ready: true, checks: { 'handoff outbox': 'ok', redis: 'degraded' } });
    const heartbeat = await get('/heartbeat');
    expect([heartbeat.statusCode, heartbeat.json()]).toEqual([200, { success: 1 }]);

    await redis.start();
    // ioredis reconnects in the background, at most 1 s apart.
    await eventually(async () => (await get('/ready')).json().checks.redis === 'ok', 10_000);
  });
});

describe('GET /ready for an instance started while Redis was down', () => {
  let redis: TestRedis;
  let svc: StubbedService;
  beforeAll(async () => {
    redis = await startTestRedis();
    await redis.stop();
    svc = await startStubbedService({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await svc?.close();
    await redis?.stop();
  });
  const get = (url: string) => svc.app.inject({ method: 'GET', url });

  it('is not ready until Redis answers; once its connection has reached Redis (no probe in between), an outage only degrades it', async () => {
    expect((await get('/ready')).json()).toEqual({ ready: false, checks: { 'handoff outbox': 'ok', redis: 'unavailable' }, detail: 'not ready: redis' });
    await redis.start();
    // No /ready call meanwhile: the instance's connections reconnect by themselves (at most 1 s apart).
    const raw = new Redis(redis.url);
    await eventually(async () => String(await raw.call('CLIENT', 'LIST')).split('\n').filter((l) => l.includes('cmd=')).length >= 3, 10_000);
    await sleep(500);
    raw.disconnect();
    await redis.stop();
    const down = await get('/ready');
    expect([down.statusCode, down.json()]).toEqual([200, { ready: true, checks: { 'handoff outbox': 'ok', redis: 'degraded' } }]);
  });
});

describe('GET /ready with a REDIS_URL that never answered', () => {
  let svc: StubbedService;
  beforeAll(async () => {
    // A port nothing listens on: a wrong address, or Redis not up yet.
    svc = await startStubbedService({ REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(async () => svc?.close());

  it('is not ready, naming Redis, so a rollout stops at this instance; heartbeat still 200', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ready: false, checks: { 'handoff outbox': 'ok', redis: 'unavailable' }, detail: 'not ready: redis' });
    expect((await svc.app.inject({ method: 'GET', url: '/heartbeat' })).statusCode).toBe(200);
  });
});

describe('GET /ready without REDIS_URL', () => {
  let svc: TracedService;
  beforeAll(async () => {
    svc = await startTracedService();
  });
  afterAll(async () => svc?.close());

  it('is ready with only the local outbox to check, needs no key, and as a probe makes no trace and no log line', async () => {
    const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const res = await svc.app.inject({ method: 'GET', url: '/ready', headers: { traceparent: `00-${traceId}-1122334455667788-01` } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ready: true, checks: { 'handoff outbox': 'ok' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(svc.exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId)).toEqual([]);
    expect(svc.logs.some((line) => line.includes('"route":"/ready"'))).toBe(false);
  });
});

describe('readiness checks', () => {
  it('counts a check that hangs or throws as not ready, without waiting for it', async () => {
    const app = Fastify();
    await app.register(
      readinessRoute(
        [
          { name: 'fine', check: async () => true },
          { name: 'hangs', check: () => new Promise<boolean>(() => {}) },
          { name: 'throws', check: async () => { throw new Error('boom'); } },
        ],
        200,
      ),
    );
    const started = Date.now();
    const res = await app.inject({ method: 'GET', url: '/ready' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ready: false, checks: { fine: 'ok', hangs: 'unavailable', throws: 'unavailable' }, detail: 'not ready: hangs, throws' });
    await app.close();
  });
});
