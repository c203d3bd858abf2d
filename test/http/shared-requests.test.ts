/**
 * Idempotency and session turns on two instances sharing one real redis-server (docs/api.md#idempotency,
 * 6.6): a replay from the other instance, 409 across instances, arrival order across instances, a
 * message that waits past its deadline, nothing left behind, and Redis going away mid-test.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { sendJson, type StubHandler } from '../helpers/stub-server.ts';
import { startStubbedService, untilRedisReady, type StubbedService } from '../helpers/stubbed-service.ts';
import { firstSlowest, inArrivalOrder, QUESTIONS, storedConversation } from '../helpers/turn-order.ts';
import { turnQueueKeysIn } from '../helpers/turn-calls.ts';

let redis: TestRedis;
let raw: Redis;
let a: StubbedService;
let b: StubbedService;
beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url).on('error', () => {}); // this test stops Redis on purpose
  a = await startStubbedService({ REDIS_URL: redis.url, ENGINE_TIMEOUT_MS: '8000' });
  // b stores through a's GraphQL stub, so that one log shows the conversation as stored; its
  // deadline is short, so that a message of it can run out of time waiting for its turn.
  b = await startStubbedService({ REDIS_URL: redis.url, ENGINE_TIMEOUT_MS: '8000', REQUEST_TIMEOUT_MS: '3000', GRAPHQL_URL: `${a.stubs.graphql.url}/graphql` });
  await untilRedisReady(a, b);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  raw?.disconnect();
  await redis?.stop();
});
const atOnce: StubHandler = (_req, res) => sendJson(res, 200, engineReply());
afterEach(() => {
  for (const svc of [a, b]) svc.stubs.engine.handle(atOnce);
});

const chat = (svc: StubbedService, payload: Record<string, unknown>, key?: string) =>
  svc.app.inject({ method: 'POST', url: '/chat_adapter', payload, headers: key === undefined ? {} : { 'idempotency-key': key } });
const sample = async (svc: StubbedService, series: string) => {
  const line = (await svc.metrics.scrape()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

describe('idempotency across instances', () => {
  it('a retry that lands on the other instance gets the kept answer; its engine is not called', async () => {
    const payload = chatRequest();
    const key = randomUUID();
    const first = await chat(a, payload, key);
    expect(first.statusCode).toBe(200);
    const engineOnB = b.stubs.engine.requests.length;
    const retry = await chat(b, payload, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    expect(b.stubs.engine.requests.length).toBe(engineOnB);
    expect((await chat(b, { ...payload, message: 'Something else entirely?' }, key)).statusCode).toBe(422);
  });

  it('the same key on the other instance while the first is running: 409, then the replay', async () => {
    a.stubs.engine.handle((_req, res) => void setTimeout(() => sendJson(res, 200, engineReply()), 800));
    const payload = chatRequest();
    const key = randomUUID();
    const first = chat(a, payload, key);
    await sleep(250);
    const duplicate = await chat(b, payload, key);
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.headers['retry-after']).toBe('1');
    const answered = await first;
    expect(answered.statusCode).toBe(200);
    expect((await chat(b, payload, key)).body).toBe(answered.body);
  });
});

describe('one turn at a time across instances', () => {
  it('stores Q1 A1 Q2 A2 ... in arrival order when the messages alternate between instances', async () => {
    for (const svc of [a, b]) svc.stubs.engine.handle(firstSlowest);
    const session_id = newSessionId();
    const replies = await Promise.all(
      QUESTIONS.map(async (message, i) => {
        await sleep(i * 25);
        return chat(i % 2 === 0 ? a : b, chatRequest({ session_id, message }));
      }),
    );
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(storedConversation(a, session_id)).toEqual(inArrivalOrder);
  });

  it('a message that waits past its own deadline is answered 503 session busy, and nothing is stored for it', async () => {
    a.stubs.engine.handle((_req, res) => void setTimeout(() => sendJson(res, 200, engineReply()), 4000));
    const session_id = newSessionId();
    const holding = chat(a, chatRequest({ session_id, message: 'A question that takes the engine a long time' }));
    await sleep(200);
    const before = await sample(b, 'chat_adapter_session_turn_wait_seconds_count{outcome="deadline"}');
    const started = performance.now();
    const busy = await chat(b, chatRequest({ session_id, message: 'A second question sent meanwhile' }));
    expect(busy.statusCode).toBe(503);
    expect(busy.json()).toEqual({ detail: 'session busy' });
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.headers['server-timing']).toMatch(/^waitForTurn;dur=\d+(\.\d{1,3})?, total;dur=/);
    expect(performance.now() - started).toBeGreaterThan(2500); // its deadline: 3000 ms from its start
    expect(b.stubs.engine.requests.some((r) => JSON.stringify(r.body).includes('sent meanwhile'))).toBe(false);
    expect((await holding).statusCode).toBe(200);
    expect(storedConversation(a, session_id).some((m) => m.includes('sent meanwhile'))).toBe(false);
    expect(await sample(b, 'chat_adapter_session_turn_wait_seconds_count{outcome="deadline"}')).toBe(before + 1);
  });

  it('leaves nothing behind once the sessions are idle: no Redis keys, no in-process entries', async () => {
    await sleep(100); // releases in Redis are sent without waiting for them
    expect(await turnQueueKeysIn(raw)).toEqual([]);
    expect(a.guards.turns.activeSessions + b.guards.turns.activeSessions).toBe(0);
  });
});

describe('when Redis goes away', () => {
  it('chats still answer 200, keyed or not, in in-process order; the fallback is counted and logged', async () => {
    await redis.stop();
    const key = randomUUID();
    const payload = chatRequest();
    const first = await chat(a, payload, key);
    expect(first.statusCode).toBe(200);
    const retry = await chat(a, payload, key);
    expect(retry.headers['idempotent-replayed']).toBe('true'); // kept in process meanwhile
    const session_id = newSessionId();
    const replies = await Promise.all([chat(a, chatRequest({ session_id })), chat(b, chatRequest({ session_id })), chat(a, chatRequest({ session_id }))]);
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(await sample(a, 'chat_adapter_shared_state_fallbacks_total{feature="idempotency"}')).toBeGreaterThanOrEqual(2);
    expect(await sample(a, 'chat_adapter_shared_state_fallbacks_total{feature="turns"}')).toBeGreaterThanOrEqual(2);
    expect(a.logs.some((line) => line.includes('this request uses the in-process store'))).toBe(true);
    expect(a.logs.join('\n')).not.toContain(key);
  });
});
