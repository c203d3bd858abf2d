/**
 * Every warning about a chat carries its trace id (docs/observability.md#logs): with Redis gone,
 * the "session turn queue unavailable" and "idempotency store unavailable" lines of a chat name
 * the chat's `trace_id`, so that an on-call can go from the line to the chat's trace and answer.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startStubbedService, untilRedisReady, type StubbedService } from '../helpers/stubbed-service.ts';

let redis: TestRedis;
let svc: StubbedService;
beforeAll(async () => {
  redis = await startTestRedis();
  svc = await startStubbedService({ REDIS_URL: redis.url });
  await untilRedisReady(svc);
}, 120_000);
afterAll(async () => {
  await svc?.close();
  await redis?.stop();
});

describe('shared-state warnings of a chat', () => {
  it('carry the trace id of the chat they are about', async () => {
    await redis.stop();
    const before = svc.logs.length;
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers: { 'idempotency-key': randomUUID() } });
    expect(res.statusCode).toBe(200);
    const traceId = (res.json() as { trace_id: string }).trace_id;
    const warnings = svc.logs
      .slice(before)
      .map((l) => JSON.parse(l) as { level: number; msg: string; trace_id?: string; operation?: string })
      // The warnings of a chat's Redis operations (they name the operation); the connection's own
      // outage line and the background handoff worker's are not about a chat.
      .filter((l) => l.level === 40 && l.operation !== undefined && l.operation !== 'connection');
    const shared = warnings.filter((l) => /^(session turn queue|idempotency store) unavailable/.test(l.msg));
    expect(shared.map((l) => l.msg.split(';')[0]).sort()).toEqual(expect.arrayContaining(['idempotency store unavailable', 'session turn queue unavailable']));
    for (const line of warnings) expect(line.trace_id, JSON.stringify(line)).toBe(traceId);
  });
});
