/**
 * A chat whose caller left while it waited for its session's turn never runs
 * (docs/api.md#one-turn-at-a-time-per-session): it leaves the queue, the engine never sees it, nothing is stored for it,
 * and it is not counted against the session's rate limit. Over real sockets, since
 * only a real connection can be dropped.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, untilRedisReady, type StubbedService } from '../helpers/stubbed-service.ts';

/** Posts a chat and drops the connection after `dropAfterMs` without reading an answer. */
function postAndDrop(port: number, payload: unknown, dropAfterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/chat_adapter', headers: { 'content-type': 'application/json' } });
    req.on('error', () => resolve());
    req.end(JSON.stringify(payload));
    setTimeout(() => {
      req.destroy();
      resolve();
    }, dropAfterMs);
  });
}

const variants: readonly { name: string; redis: boolean }[] = [
  { name: 'in process', redis: false },
  { name: 'with Redis', redis: true },
];

describe.each(variants)('a chat abandoned while it waits for its turn ($name)', ({ redis: withRedis }) => {
  let redis: TestRedis | undefined;
  let svc: StubbedService;
  let port: number;

  beforeAll(async () => {
    redis = withRedis ? await startTestRedis() : undefined;
    svc = await startStubbedService({ RATE_LIMIT_SESSION_PER_MIN: '2', ...(redis === undefined ? {} : { REDIS_URL: redis.url }) });
    if (redis !== undefined) await untilRedisReady(svc);
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    port = (svc.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await svc?.close();
    await redis?.stop();
  });

  it('never reaches the engine or the store, and lets the session\'s next message go at once', async () => {
    const session = chatRequest({ session_id: newSessionId() });
    const asked: string[] = [];
    svc.stubs.engine.handle((req, res) => {
      asked.push((req.body as { message: string }).message);
      setTimeout(() => sendJson(res, 200, engineReply()), asked.length === 1 ? 800 : 0);
    });
    const first = svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: { ...session, message: 'Is there a gym in the building?' } });
    await sleep(100);
    await postAndDrop(port, { ...session, message: 'sent and abandoned while the first one runs' }, 150);
    expect((await first).statusCode).toBe(200);
    const next = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: { ...session, message: 'Are pets allowed in the units?' } });
    expect(next.statusCode).toBe(200);
    expect(asked).toEqual(['Is there a gym in the building?', 'Are pets allowed in the units?']);
    const stored = JSON.stringify(svc.stubs.graphql.requests.map((r) => r.body));
    expect(stored).not.toContain('sent and abandoned');
  });

  it('is not counted against the session\'s rate limit', async () => {
    const session = chatRequest({ session_id: newSessionId() });
    let calls = 0;
    svc.stubs.engine.handle((_req, res) => {
      calls += 1;
      setTimeout(() => sendJson(res, 200, engineReply()), calls === 1 ? 600 : 0);
    });
    const first = svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: { ...session, message: 'Is there a gym in the building?' } });
    await sleep(100);
    await postAndDrop(port, { ...session, message: 'abandoned' }, 150);
    expect((await first).statusCode).toBe(200);
    await sleep(100); // the abandoned entry's leave (and give-back) is sent without waiting for it
    // The limit is 2 a minute: the first chat and this one; the abandoned chat took nothing.
    const second = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: { ...session, message: 'Are pets allowed in the units?' } });
    expect(second.statusCode).toBe(200);
    const third = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: { ...session, message: 'Is parking included in the rent?' } });
    expect(third.statusCode).toBe(429);
  });
});
