import { waitFor } from '../telemetry/traced-service.ts';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { IdempotencyStores } from '../../src/idempotency/create-idempotency-store.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson, type StubHandler } from '../helpers/stub-server.ts';
import { graphqlStubHandler, useStubbedService } from '../helpers/stubbed-service.ts';
import { metricValue } from '../helpers/metric-value.ts';

const harness = useStubbedService({ ENGINE_TIMEOUT_MS: '3000', GRAPHQL_TIMEOUT_MS: '400' });
/** clientMessageKey -> id, as the GraphQL stub stored them (it is idempotent on the key). */
const stored = new Map<string, string>();
const answerAtOnce: StubHandler = (_req, res) => sendJson(res, 200, engineReply());
const slowEngine = (ms: number): StubHandler => (_req, res) => void setTimeout(() => sendJson(res, 200, engineReply()), ms);
beforeAll(() => {
  harness.svc.stubs.graphql.handle(graphqlStubHandler(stored));
});
afterEach(() => {
  harness.svc.stubs.engine.handle(answerAtOnce);
  harness.svc.stubs.graphql.handle(graphqlStubHandler(stored));
});

const chat = (payload: Record<string, unknown>, key?: string) => harness.chat(payload, key === undefined ? {} : { 'idempotency-key': key });
const engineCalls = () => harness.svc.stubs.engine.requests.length;
type GraphqlBody = { query: string; variables: { input: Record<string, unknown> } };
/** The clientMessageKeys of createServiceMessage calls, from the `from`-th GraphQL request on. */
const messageKeys = (from = 0) =>
  harness.svc.stubs.graphql.requests
    .slice(from)
    .map((r) => r.body as GraphqlBody)
    .filter((b) => b.query.includes('createServiceMessage'))
    .map((b) => String(b.variables.input['clientMessageKey']));
async function metric(series: string): Promise<number> {
  return metricValue(await harness.svc.metrics.scrape(), series);
}
const newKey = () => `key-${randomUUID()}`;

describe('a retried chat with the same Idempotency-Key', () => {
  it('gets the kept answer again, byte for byte, marked replayed; nothing is called, stored or handed off again', async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ sub_intent: 'agent_hand_off', intent: 'contact' })));
    const payload = chatRequest({ message: 'Please connect me with a person' });
    const key = newKey();
    const [engineBefore, graphqlBefore, handoffsBefore] = [engineCalls(), harness.svc.stubs.graphql.requests.length, harness.svc.stubs.handoff.requests.length];
    const first = await chat(payload, key);
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    await waitFor(() => (harness.svc.stubs.handoff.requests.length > handoffsBefore ? true : undefined), 5_000, 'the handoff delivery');
    expect(harness.svc.stubs.handoff.requests.length).toBe(handoffsBefore + 1);
    const graphqlAfterFirst = harness.svc.stubs.graphql.requests.length;
    expect(graphqlAfterFirst).toBeGreaterThan(graphqlBefore);

    const waitsBefore = await metric('chat_adapter_session_turn_wait_seconds_count{outcome="turn"}');
    const replayedBefore = await metric('chat_adapter_idempotent_requests_total{outcome="replayed"}');
    const replays = [await chat(payload, key), await chat(payload, key)];
    expect(await metric('chat_adapter_session_turn_wait_seconds_count{outcome="turn"}')).toBe(waitsBefore); // a replay never waits its turn
    expect(await metric('chat_adapter_idempotent_requests_total{outcome="replayed"}')).toBe(replayedBefore + 2);
    for (const replay of replays) {
      expect(replay.statusCode).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(replay.body).toBe(first.body);
    }
    await sleep(100);
    expect(engineCalls()).toBe(engineBefore + 1);
    expect(harness.svc.stubs.graphql.requests.length).toBe(graphqlAfterFirst);
    expect(harness.svc.stubs.handoff.requests.length).toBe(handoffsBefore + 1);
  });

  it('is the same key whether sent bare or as the quoted string of the draft', async () => {
    const payload = chatRequest();
    const key = newKey();
    const first = await chat(payload, `"${key}"`);
    const second = await chat(payload, key);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
  });

  it('while the first is still being processed: 409 with Retry-After: 1; once it is answered, the replay', async () => {
    harness.svc.stubs.engine.handle(slowEngine(600));
    const payload = chatRequest();
    const key = newKey();
    const before = await metric('chat_adapter_idempotent_requests_total{outcome="in_flight"}');
    const first = chat(payload, key);
    await sleep(150);
    const duplicate = await chat(payload, key);
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.headers['retry-after']).toBe('1');
    expect(duplicate.json()).toEqual({ detail: expect.stringContaining('Idempotency-Key') });
    const answered = await first;
    expect(answered.statusCode).toBe(200);
    const retry = await chat(payload, key);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(answered.body);
    expect(await metric('chat_adapter_idempotent_requests_total{outcome="in_flight"}')).toBe(before + 1);
  });

  it('with a different request: 422, and the kept answer stays', async () => {
    const key = newKey();
    const payload = chatRequest({ message: 'Do you have parking?' });
    const first = await chat(payload, key);
    const engineBefore = engineCalls();
    const mismatchBefore = await metric('chat_adapter_idempotent_requests_total{outcome="mismatch"}');
    const other = await chat({ ...payload, message: 'Do you have a gym?' }, key);
    expect(other.statusCode).toBe(422);
    expect(await metric('chat_adapter_idempotent_requests_total{outcome="mismatch"}')).toBe(mismatchBefore + 1);
    expect(other.json()).toEqual({ detail: expect.stringContaining('different request') });
    expect(engineCalls()).toBe(engineBefore);
    expect((await chat(payload, key)).body).toBe(first.body);
  });

  it('the same members in another order are the same request', async () => {
    const key = newKey();
    const payload = chatRequest();
    const first = await chat(payload, key);
    const reordered = Object.fromEntries(Object.entries(payload).reverse());
    expect((await chat(reordered, key)).body).toBe(first.body);
  });
});

describe('a first attempt that failed', () => {
  it('is not kept: the retry runs again (engine 5xx, then 200)', async () => {
    const key = newKey();
    const payload = chatRequest();
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 502, { error: 'bad gateway' }));
    expect((await chat(payload, key)).statusCode).toBe(503);
    harness.svc.stubs.engine.handle(answerAtOnce);
    const engineBefore = engineCalls();
    const retry = await chat(payload, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(engineCalls()).toBe(engineBefore + 1);
  });

  it('stores nothing twice: the question stored by the failed attempt has the same clientMessageKey on the retry', async () => {
    const key = newKey();
    const payload = chatRequest();
    const from = harness.svc.stubs.graphql.requests.length;
    const storeQuestionsOnly = graphqlStubHandler(stored);
    harness.svc.stubs.graphql.handle((req, res) => {
      if (JSON.stringify(req.body).includes('ASSISTANT')) sendJson(res, 503, { error: 'down' });
      else storeQuestionsOnly(req, res);
    });
    expect((await chat(payload, key)).statusCode).toBe(503);
    harness.svc.stubs.graphql.handle(graphqlStubHandler(stored));
    const retry = await chat(payload, key);
    expect(retry.statusCode).toBe(200);
    const keys = messageKeys(from);
    const distinct = new Set(keys);
    expect(distinct.size).toBe(2);
    const [question, answer] = [...distinct];
    expect(question).toMatch(/:question$/);
    expect(answer).toMatch(/:answer$/);
    expect(keys.filter((k) => k === question).length).toBe(2); // sent twice, stored once (the stub is idempotent on it)
    expect(retry.json().message_id).toBe(stored.get(answer as string));
  });
});

describe('scope: the organisation', () => {
  it('two organisations sending the same key get separate runs and separate stored messages', async () => {
    const key = newKey();
    const from = harness.svc.stubs.graphql.requests.length;
    const engineBefore = engineCalls();
    const ours = await chat(chatRequest({ orgId: '1111111111111111111' }), key);
    const theirs = await chat(chatRequest({ orgId: '2222222222222222222' }), key);
    expect([ours.statusCode, theirs.statusCode]).toEqual([200, 200]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(engineCalls()).toBe(engineBefore + 2);
    const keys = messageKeys(from);
    expect(new Set(keys).size).toBe(4);
    expect(ours.json().message_id).not.toBe(theirs.json().message_id);
    for (const k of keys) expect(k).not.toContain(key);
  });
});

describe('the Idempotency-Key header', () => {
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('').replace('"', '');
  it.each([
    ['a UUID', randomUUID()],
    ['with spaces inside', 'order 42 retry'],
    ['every printable character but the quote', `x${printable}x`.slice(0, 255)],
    ['255 characters', 'k'.repeat(255)],
    ['the quoted form', `"${randomUUID()}"`],
    ['the quoted form with 255 characters inside', `"${'q'.repeat(255)}"`],
    ['the quoted form with escapes', '"a\\"b\\\\c"'],
  ])('accepts %s', async (_label, key) => {
    const res = await chat(chatRequest(), key.includes('"') || key.length > 40 ? key : `${key}-${randomUUID()}`);
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['empty', ''],
    ['an empty quoted string', '""'],
    ['256 characters', 'k'.repeat(256)],
    ['256 characters quoted', `"${'k'.repeat(256)}"`],
    ['a control character', 'abc\u0001def'],
    ['a tab', 'abc\tdef'],
    ['a non-ASCII character', 'clé-1'],
    ['a quote not closed', '"abc'],
    ['a quote not opened', 'abc"'],
    ['a quote inside a bare key', 'ab"c'],
    ['a list of quoted keys', '"a", "b"'],
    ['a backslash escaping something else', '"a\\b"'],
  ])('refuses %s with a 400 naming Idempotency-Key, before anything is called', async (_label, key) => {
    const engineBefore = engineCalls();
    const res = await chat(chatRequest(), key);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ detail: { message: expect.stringContaining("'Idempotency-Key'"), trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) } });
    expect(engineCalls()).toBe(engineBefore);
  });

  it('refuses the header sent twice', async () => {
    const res = await harness.svc.app.inject({
      method: 'POST', url: '/chat_adapter', payload: chatRequest(),
      headers: { 'idempotency-key': [newKey(), newKey()] as unknown as string },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail.message).toContain('Idempotency-Key');
  });
});

describe('cost and state', () => {
  it('a chat without a key never touches the store; no claim is left in flight', async () => {
    const series = ['new', 'replayed', 'in_flight', 'mismatch'].map((o) => `chat_adapter_idempotent_requests_total{outcome="${o}"}`);
    const before = await Promise.all(series.map(metric));
    expect((await chat(chatRequest())).statusCode).toBe(200);
    expect(await Promise.all(series.map(metric))).toEqual(before);
    expect((harness.svc.guards.idempotency as IdempotencyStores).local.inFlight).toBe(0);
  });
});
