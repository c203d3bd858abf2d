/**
 * docs/api.md#when-a-party-fails, the fault table, row by row: for each party and each way it can fail, the chat
 * gets the documented outcome; afterwards the service still serves (a normal chat: 200, stored),
 * the process still runs, and every 200 has its question and answer stored. The whole table runs
 * against the service in this process and against a real `node dist/src/server.js` process, each with
 * loopback stubs switched per fault (test/helpers/party-faults.ts) and a real redis-server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { notAvailableNow } from '../../src/reply/property-answers.ts';
import { engineReply, newSessionId } from '../helpers/fixtures.ts';
import { applyFault, clearFault, FAULTS, type Fault } from '../helpers/party-faults.ts';
import { metricValue } from '../helpers/metric-value.ts';
import type { RecordedRequest } from '../helpers/stub-server.ts';
import type { Stubs } from '../helpers/stubbed-service.ts';
import { waitFor } from '../outbox/outbox-contract.ts';
import {
  ADMIN_KEY, EMERGENCY, expectStored, HANDOFF_TIMEOUT_MS, inProcessTarget, OFFICE_HOURS, PARTY_TIMEOUT_MS, partyCalls,
  processTarget, SESSION_LIMIT_PER_MIN, storeCalls, UNITS_QUESTION, type ChatAnswer, type FaultTarget,
} from './fault-targets.ts';

type HttpParty = keyof Stubs;
type Outcome = (t: FaultTarget, fault: Fault, clear: () => Promise<void>) => Promise<void>;

/** A handoff receiver answering a 2xx status has acknowledged the handoff: what follows is not read. */
const ACKNOWLEDGED: readonly Fault[] = ['reset mid-answer', 'malformed JSON', 'out of contract'];
/** The bounded reason a failed delivery is logged with. */
const DELIVERY_FAILURE: Partial<Record<Fault, string>> = {
  refused: 'unreachable',
  'reset before answering': 'unreachable',
  'slow past its timeout': 'timeout',
  '5xx': 'status_503',
};

const logLine = (t: FaultTarget, msg: string, traceId: string) =>
  t.logLines().find((line) => line['msg'] === msg && line['trace_id'] === traceId);
const forTrace = (traceId: string) => (r: RecordedRequest) => (r.body as { trace_id?: unknown }).trace_id === traceId;

async function pendingHandoffs(t: FaultTarget): Promise<unknown[] | undefined> {
  const res = await t.get('/admin/handoffs?status=pending', { authorization: `Bearer ${ADMIN_KEY}` });
  // 503 while the shared outbox's own connection is still coming back after Redis restarted: asked again.
  if (res.status === 503) return undefined;
  expect(res.status).toBe(200);
  return (JSON.parse(res.text) as { handoffs: unknown[] }).handoffs;
}

/** A handoff chat: answered at once, with its question and answer stored. */
async function handoffChat(t: FaultTarget): Promise<ChatAnswer> {
  const chat = await t.chat({ message: EMERGENCY });
  expectStored(t, chat);
  expect(chat.body.agent_handoff).toEqual({ requested: true, reason: 'emergency_maintenance' });
  expect(chat.ms).toBeLessThan(HANDOFF_TIMEOUT_MS);
  return chat;
}

/**
 * Delivered: the receiver accepted it, every attempt carried the handoff's id as its Idempotency-Key,
 * nothing is left pending (the admin list reads Redis too: not while it is down).
 */
async function expectDelivered(t: FaultTarget, chat: ChatAnswer, listPending = true): Promise<Record<string, unknown>> {
  const delivered = await waitFor(() => logLine(t, 'handoff delivered', chat.traceId), 15_000, 'the handoff to be delivered');
  const attempts = t.stubs.handoff.requests.filter(forTrace(chat.traceId));
  expect(attempts.length).toBeGreaterThan(0);
  const handoffId = (attempts[0]?.body as { handoff_id: string }).handoff_id;
  expect(new Set(attempts.map((r) => r.headers['idempotency-key']))).toEqual(new Set([handoffId]));
  if (listPending) await waitFor(async () => ((await pendingHandoffs(t))?.length === 0 ? true : undefined), 5_000, 'no handoff pending');
  return delivered;
}

/** What each party's failure does to a chat (the 6.8 table's second column). */
const OUTCOMES: Record<HttpParty, Outcome> = {
  async engine(t, fault) {
    const chat = await t.chat({ message: OFFICE_HOURS });
    expect(chat.status).toBe(503);
    expect(chat.body).toEqual({ detail: 'engine unavailable' });
    // Nothing stored, nothing else called; the engine is not retried.
    expect(partyCalls(t, 'graphql', chat.traceId)).toEqual([]);
    expect(partyCalls(t, 'engine', chat.traceId)).toHaveLength(fault === 'refused' ? 0 : 1);
  },

  async graphql(t, fault) {
    const chat = await t.chat({ message: OFFICE_HOURS });
    expect(chat.status).toBe(503);
    expect(chat.body).toEqual({ detail: 'graphql unavailable' });
    // Retried, bounded: three tries of the same question (one clientMessageKey), no answer stored.
    const tries = storeCalls(t, chat.traceId);
    expect(tries).toHaveLength(fault === 'refused' ? 0 : 3);
    expect(new Set(tries.map((input) => `${String(input['role'])} ${String(input['clientMessageKey'])}`)).size).toBeLessThanOrEqual(1);
    expect(tries.every((input) => input['role'] === 'USER')).toBe(true);
    // (A real process's log line may reach its stdout pipe just after the answer.)
    const logged = await waitFor(() => logLine(t, 'graphql unavailable', chat.traceId), 5_000, 'the 503 log line');
    expect(logged['reason']).toMatch(/^graphql: .* after 3 attempt\(s\)$/);
  },

  async translate(t, fault) {
    const chat = await t.chat({ message: OFFICE_HOURS, spanish_toggle: true });
    expectStored(t, chat);
    expect(chat.body.language).toBe('en');
    expect(chat.body.response).toBe(engineReply().response);
    expect(chat.body.follow_up).toBe(engineReply().follow_up);
    expect(partyCalls(t, 'translate', chat.traceId)).toHaveLength(fault === 'refused' ? 0 : 2);
  },

  async propertyApi(t) {
    const chat = await t.chat({ message: UNITS_QUESTION });
    expectStored(t, chat);
    expect(chat.body.response).toBe(notAvailableNow('units', 'en'));
    expect(chat.body.not_available).toEqual(['units']);
  },

  async handoff(t, fault, clear) {
    const chat = await handoffChat(t);
    if (ACKNOWLEDGED.includes(fault)) {
      const delivered = await expectDelivered(t, chat);
      expect(delivered['attempts']).toBe(1);
      expect(t.stubs.handoff.requests.filter(forTrace(chat.traceId))).toHaveLength(1);
      return;
    }
    // Not delivered while the receiver fails: the outbox retries ...
    const failed = await waitFor(() => logLine(t, 'handoff delivery failed, will retry', chat.traceId), 10_000, 'a failed delivery');
    expect(failed['reason']).toBe(DELIVERY_FAILURE[fault]);
    expect(t.accepted.filter(forTrace(chat.traceId))).toEqual([]);
    // ... and delivers it once the receiver is back.
    await clear();
    const delivered = await expectDelivered(t, chat);
    expect(delivered['attempts']).toBeGreaterThan(1);
    expect(t.accepted.filter(forTrace(chat.traceId))).toHaveLength(1);
  },
};

const slowMs = (party: HttpParty) => 3 * (party === 'handoff' ? HANDOFF_TIMEOUT_MS : PARTY_TIMEOUT_MS);

/** Until readiness reports Redis answering again (during an outage it is `degraded`, still 200). */
async function untilRedisOk(t: FaultTarget): Promise<void> {
  await waitFor(async () => ((JSON.parse((await t.get('/ready')).text) as { checks?: Record<string, string> }).checks?.['redis'] === 'ok' ? true : undefined), 15_000, 'Redis ok in GET /ready');
}

async function untilReady(t: FaultTarget): Promise<void> {
  await waitFor(async () => ((await t.get('/ready')).status === 200 ? true : undefined), 15_000, 'GET /ready to answer 200');
}

const SHARED_ENQUEUED = 'chat_adapter_handoffs_enqueued_total{store="shared"}';

/** The Redis rows: taken away mid-run (SIGKILL), and brought back on the same port. */
const REDIS_OUTCOMES: Record<'stopped' | 'restarted', (t: FaultTarget) => Promise<void>> = {
  async stopped(t) {
    await t.redis.stop();
    try {
      // 200, and the session cache misses: the same question again goes to the engine again.
      const session_id = newSessionId();
      const first = await t.chat({ message: OFFICE_HOURS, session_id });
      const again = await t.chat({ message: OFFICE_HOURS, session_id });
      for (const chat of [first, again]) {
        expectStored(t, chat);
        expect(partyCalls(t, 'engine', chat.traceId)).toHaveLength(1);
      }
      // Per-instance limits: the session's limit still holds, counted in this instance.
      for (let n = 3; n <= SESSION_LIMIT_PER_MIN; n += 1) expectStored(t, await t.chat({ message: `Question ${n}: ${OFFICE_HOURS}`, session_id }));
      const over = await t.chat({ message: OFFICE_HOURS, session_id });
      expect(over.status).toBe(429);
      expect(over.body).toEqual({ detail: 'Too Many Requests' });
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(partyCalls(t, 'engine', over.traceId)).toEqual([]);
      // The local outbox: the handoff is written there and delivered.
      const chat = await handoffChat(t);
      await expectDelivered(t, chat, false);
      // Logged before it was delivered.
      expect(logLine(t, 'shared handoff outbox unavailable; writing to the local outbox', chat.traceId)).toBeDefined();
      // Readiness reports Redis degraded but stays ready (it had answered before); liveness too.
      const ready = await t.get('/ready');
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.text)).toMatchObject({ checks: { redis: 'degraded' } });
      expect((await t.get('/heartbeat')).status).toBe(200);
    } finally {
      await t.redis.start();
    }
    await untilRedisOk(t);
  },

  async restarted(t) {
    await t.redis.stop();
    expectStored(t, await t.chat({ message: OFFICE_HOURS }));
    await t.redis.start();
    // Recovers by itself: Redis ok again, ...
    await untilRedisOk(t);
    // ... the session cache answers a repeated question again (engine asked once), ...
    await waitFor(async () => {
      const session_id = newSessionId();
      const first = await t.chat({ message: OFFICE_HOURS, session_id });
      const again = await t.chat({ message: OFFICE_HOURS, session_id });
      expectStored(t, first);
      expectStored(t, again);
      return partyCalls(t, 'engine', again.traceId).length === 0 ? true : undefined;
    }, 10_000, 'a cache hit');
    // ... and handoffs go to the shared outbox again.
    const before = metricValue((await t.get('/metrics')).text, SHARED_ENQUEUED);
    const chat = await waitFor(async () => {
      const sent = await handoffChat(t);
      await expectDelivered(t, sent);
      return metricValue((await t.get('/metrics')).text, SHARED_ENQUEUED) > before ? sent : undefined;
    }, 10_000, 'a handoff written to Redis');
    expect(logLine(t, 'shared handoff outbox unavailable; writing to the local outbox', chat.traceId)).toBeUndefined();
  },
};

const HTTP_PARTIES: readonly HttpParty[] = ['engine', 'graphql', 'translate', 'propertyApi', 'handoff'];
const ROWS = [
  ...HTTP_PARTIES.flatMap((party) => FAULTS.map((fault) => ({ party, fault }) as const)),
  { party: 'redis', fault: 'stopped' } as const,
  { party: 'redis', fault: 'restarted' } as const,
];

const TARGETS = [
  { name: 'in process', start: inProcessTarget },
  { name: 'real process', start: processTarget },
];

describe.each(TARGETS)('the fault table, $name', ({ start }) => {
  let t: FaultTarget;
  beforeAll(async () => {
    t = await start();
    await untilReady(t);
    // The contact finders load on a process's first contact chat (they are kept out of idle memory):
    // load them now, so that the rows time the handoff, not that one-off load.
    expectStored(t, await t.chat({ message: EMERGENCY }));
  }, 30_000);
  afterAll(async () => t?.close());

  afterEach(async () => {
    // The service keeps serving, the process keeps running, and no fault became the service's own 500.
    expect(t.running()).toBe(true);
    expectStored(t, await t.chat({ message: OFFICE_HOURS }));
    expect(t.logLines().filter((line) => line['status'] === 500)).toEqual([]);
  });

  it('with every party healthy: translated, units listed, the handoff delivered at the first attempt', async () => {
    const spanish = await t.chat({ message: OFFICE_HOURS, spanish_toggle: true });
    expectStored(t, spanish);
    expect(spanish.body).toMatchObject({ language: 'es', response: `[es] ${engineReply().response}` });
    const units = await t.chat({ message: UNITS_QUESTION });
    expectStored(t, units);
    expect(units.body.not_available).toEqual([]);
    expect(units.body.response).toContain('B12');
    const handoff = await handoffChat(t);
    expect((await expectDelivered(t, handoff))['attempts']).toBe(1);
  });

  it.each(ROWS)('$party: $fault', async ({ party, fault }) => {
    if (party === 'redis') return REDIS_OUTCOMES[fault](t);
    const clear = () => clearFault(t.stubs[party], t.healthy[party]);
    await applyFault(t.stubs[party], fault, slowMs(party));
    try {
      await OUTCOMES[party](t, fault, clear);
    } finally {
      await clear();
    }
  }, 30_000);
});
