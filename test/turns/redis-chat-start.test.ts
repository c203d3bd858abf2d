/**
 * The start of a chat with REDIS_URL (rate limits, turn, session in one script), through two
 * instances on one real redis-server: what a visitor would notice.
 */
import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestIdFor } from '../../src/pipeline/request-id.ts';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, untilRedisReady, type StubbedService } from '../helpers/stubbed-service.ts';
import { turnQueueKeyOf } from '../helpers/turn-calls.ts';
import type { SessionOf } from '../../src/pipeline/session-key.ts';

let redis: TestRedis;
let raw: Redis;
let a: StubbedService;
let b: StubbedService;
beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
  const env = { REDIS_URL: redis.url, RATE_LIMIT_SESSION_PER_MIN: '2', RATE_LIMIT_ORG_PER_MIN: '3', ENGINE_TIMEOUT_MS: '5000' };
  [a, b] = await Promise.all([startStubbedService(env), startStubbedService(env)]);
  await untilRedisReady(a, b);
}, 20_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  raw?.disconnect();
  await redis?.stop();
});

const chat = (svc: StubbedService, payload: Record<string, unknown>) => svc.app.inject({ method: 'POST', url: '/chat_adapter', payload });
/** A new organisation per test: the organisation limit counts per test. */
const newOrg = () => String(randomInt(1e9, 2e9)) + String(randomInt(1e9, 2e9)).slice(0, 9);
const slowEngine = (svc: StubbedService, ms: number) =>
  svc.stubs.engine.handle((req, res) => {
    const message = (req.body as { message: string }).message;
    setTimeout(() => sendJson(res, 200, engineReply({ response: `About "${message}": yes.` })), ms);
  });

/** The history the instance last sent its engine. */
const lastHistorySent = (svc: StubbedService) => (svc.stubs.engine.requests.at(-1)?.body as { history: { role: string; content: string }[] }).history;
/** A turn as the next message's history holds it: the question and the slow engine's answer to it. */
const turnHistory = (question: string) => [
  { role: 'user', content: question },
  { role: 'assistant', content: expect.stringContaining(`About "${question}"`) },
];

/** A new session's chat sent with `key` as its Idempotency-Key, to the instance it is given. */
function keyedChat(key: string) {
  const session = chatRequest({ orgId: newOrg(), session_id: newSessionId() });
  return (svc: StubbedService) => svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: session, headers: { 'idempotency-key': key } });
}

const STALL_MS = 1_500;

/** Pauses every Redis client for STALL_MS; `inStall` says whether it still lasts, `after` waits until 150 ms past its end. */
async function stallRedis(): Promise<{ inStall: () => boolean; after: () => Promise<void> }> {
  const pausedAt = performance.now();
  await raw.call('CLIENT', 'PAUSE', String(STALL_MS), 'ALL');
  return {
    inStall: () => performance.now() - pausedAt < STALL_MS,
    after: async () => {
      await sleep(STALL_MS - (performance.now() - pausedAt) + 150);
    },
  };
}

describe('the start of a chat with Redis, on two instances', () => {
  it('counts a session and its organisation across instances, narrowest first: a chat refused by the session limit is not counted by the organisation', async () => {
    slowEngine(a, 0);
    slowEngine(b, 0);
    const orgId = newOrg();
    const first = chatRequest({ orgId, session_id: newSessionId() });
    const second = chatRequest({ orgId, session_id: newSessionId() });
    const statuses = [
      (await chat(a, first)).statusCode, (await chat(b, first)).statusCode, (await chat(a, first)).statusCode,
      (await chat(b, second)).statusCode, (await chat(a, second)).statusCode,
    ];
    // Session limit 2 refuses the third chat of the first session; the organisation (limit 3) has
    // counted two, so the other session gets one more, then 429.
    expect(statuses).toEqual([200, 200, 429, 200, 429]);
    const refused = await chat(b, chatRequest({ orgId, session_id: newSessionId() })); // a third session: the organisation's limit
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ detail: 'Too Many Requests' });
    expect(refused.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '0' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('a replayed Idempotency-Key answer is not counted against the rate limits (the start script claims the key before it counts)', async () => {
    slowEngine(a, 0);
    slowEngine(b, 0);
    const session = chatRequest({ orgId: newOrg(), session_id: newSessionId() });
    const keyed = (svc: StubbedService) => svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: session, headers: { 'idempotency-key': 'order-42' } });
    expect((await keyed(a)).statusCode).toBe(200);
    for (const svc of [b, a, b]) {
      const replay = await keyed(svc);
      expect([replay.statusCode, replay.headers['idempotent-replayed']]).toEqual([200, 'true']);
    }
    // Session limit 2: one more chat, then 429.
    expect([(await chat(a, session)).statusCode, (await chat(b, session)).statusCode]).toEqual([200, 429]);
  });

  it('a keyed chat refused by a rate limit gives its key back: sent again it is refused again (429, not 409 in flight), and nothing of it stays in Redis', async () => {
    slowEngine(a, 0);
    slowEngine(b, 0);
    const session = chatRequest({ orgId: newOrg(), session_id: newSessionId() });
    expect([(await chat(a, session)).statusCode, (await chat(b, session)).statusCode]).toEqual([200, 200]);
    const keyed = (svc: StubbedService) => svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: session, headers: { 'idempotency-key': 'over-the-limit' } });
    const refused = [await keyed(a), await keyed(b)];
    expect(refused.map((r) => r.statusCode)).toEqual([429, 429]);
    expect(await raw.exists(`chat-adapter:idempotency:${requestIdFor(String(session['orgId']), 'over-the-limit')}`)).toBe(0);
  });

  it('a chat refused by a rate limit never enters the session\'s queue: its 429 comes at once while another message holds the turn', async () => {
    slowEngine(a, 1_000);
    slowEngine(b, 0);
    const session = chatRequest({ orgId: newOrg(), session_id: newSessionId() });
    const queue = turnQueueKeyOf(session as unknown as SessionOf, 'turns');
    const holding = chat(a, { ...session, message: 'Is there a gym in the building?' });
    await sleep(150);
    const waiting = chat(b, { ...session, message: 'Are pets allowed in the units?' });
    await sleep(150);
    const started = performance.now();
    const refused = await chat(b, { ...session, message: 'And is there parking?' });
    expect(refused.statusCode).toBe(429);
    expect(performance.now() - started).toBeLessThan(500); // it did not wait for the turn
    expect(await raw.zcard(queue)).toBe(2); // the holder and the waiting message only
    expect([(await holding).statusCode, (await waiting).statusCode]).toEqual([200, 200]);
    expect(b.stubs.engine.requests.map((r) => (r.body as { message: string }).message)).not.toContain('And is there parking?');
  });

  it('the session is read when the turn is taken: a message queued on one instance sees the turn another instance answered just before', async () => {
    slowEngine(a, 600);
    slowEngine(b, 0);
    const session = chatRequest({ orgId: newOrg(), session_id: newSessionId() });
    const first = chat(a, { ...session, message: 'Is there a gym in the building?' });
    await sleep(150);
    const second = await chat(b, { ...session, message: 'Are pets allowed in the units?' });
    expect([(await first).statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json().latency.steps.waitForTurn).toBeGreaterThan(200);
    expect(lastHistorySent(b)).toEqual(turnHistory('Is there a gym in the building?'));
  });

  it('a chat during a Redis stall waits for Redis once, at its start (200 ms): its session is not read again, its turn is written behind the reply and is there for the next message once the stall is over', async () => {
    slowEngine(a, 0);
    slowEngine(b, 0);
    const session = chatRequest({ orgId: newOrg(), session_id: newSessionId() });
    const stall = await stallRedis();
    const started = performance.now();
    const during = await chat(a, { ...session, message: 'Is there a gym in the building?' });
    const took = performance.now() - started;
    expect(during.statusCode).toBe(200);
    expect(stall.inStall()).toBe(true);
    const steps = during.json().latency.steps as Record<string, number>;
    expect(steps['waitForTurn']).toBeGreaterThanOrEqual(190); // the start script's command timeout
    expect([steps['loadSession']! < 50, steps['rememberTurn']! < 50]).toEqual([true, true]);
    expect(took).toBeLessThan(450);
    await stall.after();
    const next = await chat(b, { ...session, message: 'Are pets allowed in the units?' });
    expect(next.statusCode).toBe(200);
    expect(lastHistorySent(b)).toEqual(turnHistory('Is there a gym in the building?'));
  });

  it('a keyed chat answered in process during a Redis stall is replayed after it, on either instance: the key its late start script claimed on Redis is settled too, not left "in flight" until the claim expires', async () => {
    slowEngine(a, 0);
    slowEngine(b, 0);
    const keyed = keyedChat('stall-7');
    const stall = await stallRedis();
    // The start script times out in the client (200 ms) and runs on Redis when the pause ends: the
    // chat goes on in process and is answered while Redis is still paused.
    const first = await keyed(a);
    expect(first.statusCode).toBe(200);
    expect(stall.inStall()).toBe(true);
    await stall.after();
    for (const svc of [b, a]) {
      const retry = await keyed(svc);
      expect([retry.statusCode, retry.headers['idempotent-replayed']]).toEqual([200, 'true']);
      expect(retry.body).toBe(first.body);
    }
  });

  it('a keyed chat that fails during a Redis stall gives back the key its late start script claimed on Redis: sent again after the stall, it runs (not 409 in flight)', async () => {
    a.stubs.engine.handle((_req, res) => sendJson(res, 500, { error: 'engine down' }));
    slowEngine(b, 0);
    const keyed = keyedChat('stall-8');
    const stall = await stallRedis();
    const failed = await keyed(a);
    expect([failed.statusCode, failed.json()]).toEqual([503, { detail: 'engine unavailable' }]);
    expect(stall.inStall()).toBe(true);
    await stall.after();
    const engineCalls = b.stubs.engine.requests.length;
    const retry = await keyed(b);
    expect([retry.statusCode, retry.headers['idempotent-replayed']]).toEqual([200, undefined]);
    expect(b.stubs.engine.requests.length).toBe(engineCalls + 1);
  });
});
