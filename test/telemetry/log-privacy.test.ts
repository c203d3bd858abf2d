import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLER_API_KEY, chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { graphqlStubHandler, startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { CONTACT_MESSAGE, PLAIN_MESSAGE, leaks } from './private-data.ts';
import { waitFor } from './traced-service.ts';

interface LogLine {
  level: number;
  msg: string;
  trace_id?: string;
  [key: string]: unknown;
}

let svc: StubbedService;
/** trace_id of each response (from its body), with the status it got. */
const answered: { traceId: string; status: number }[] = [];

async function send(payload: string | Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload, headers: { 'content-type': 'application/json', ...headers } });
  const body = res.json() as { trace_id?: string; detail?: { trace_id?: string } | string };
  const traceId = body.trace_id ?? (typeof body.detail === 'object' ? body.detail.trace_id : undefined);
  if (traceId !== undefined) answered.push({ traceId, status: res.statusCode });
  return res;
}

const contactReply = (sub_intent: string) => (_req: unknown, res: Parameters<typeof sendJson>[0]) =>
  sendJson(res, 200, engineReply({ intent: 'support', sub_intent }));

/** Every kind of chat the service handles, good and bad, at LOG_LEVEL=trace; then the logs are read. */
beforeAll(async () => {
  // A handoff is retried for 300 ms, then dead-lettered.
  svc = await startStubbedService({ LOG_LEVEL: 'trace', HANDOFF_MAX_AGE_S: '1' }, { outbox: { backoff: { baseMs: 50, capMs: 200 } } });
  const { engine, graphql, translate, handoff } = svc.stubs;

  expect((await send(chatRequest({ message: PLAIN_MESSAGE }))).statusCode).toBe(200);

  engine.handle(contactReply('contact'));
  expect((await send(chatRequest({ message: CONTACT_MESSAGE }))).statusCode).toBe(200);
  const update = graphql.requests.find((r) => JSON.stringify(r.body).includes('updateServiceConversation'));
  expect(JSON.stringify(update?.body)).toContain('+14155552671');

  // A handoff that fails every try (with the visitor's contact in its payload), in Spanish with translation down.
  handoff.handle((_req, res) => sendJson(res, 500, { error: 'down' }));
  translate.handle((_req, res) => sendJson(res, 500, { error: 'down' }));
  engine.handle(contactReply('agent_hand_off'));
  expect((await send(chatRequest({ message: CONTACT_MESSAGE, spanish_toggle: true }))).statusCode).toBe(200);

  // GraphQL down: 503, whose body has no trace_id; the caller's traceparent tells which trace it is.
  engine.handle(contactReply('complaint_filing'));
  graphql.handle((_req, res) => sendJson(res, 500, { errors: [{ message: `cannot store ${CONTACT_MESSAGE}` }] }));
  const unavailable = '5e1a0c2b3d4f5a6b7c8d9e0f1a2b3c4d';
  expect((await send(chatRequest({ message: CONTACT_MESSAGE }), { traceparent: `00-${unavailable}-b7ad6b7169203331-01` })).statusCode).toBe(503);
  answered.push({ traceId: unavailable, status: 503 });
  graphql.handle(graphqlStubHandler());

  // 400s: a bad field, a whitespace message, malformed JSON quoting the message.
  expect((await send(chatRequest({ message: CONTACT_MESSAGE, propertyId: 'x' }))).statusCode).toBe(400);
  expect((await send(chatRequest({ message: '   ' }))).statusCode).toBe(400);
  expect((await send(`{"message": "${CONTACT_MESSAGE}", "graphql_api_key": "${CALLER_API_KEY}"`)).statusCode).toBe(400);

  // 500: a defect whose error message quotes the visitor's message and contact.
  engine.handle(contactReply('agent_hand_off'));
  const enqueue = svc.deps.handoff.enqueue;
  svc.deps.handoff.enqueue = async (payload) => {
    throw new TypeError(`cannot enqueue ${payload.message} ${JSON.stringify(payload.contact)}`);
  };
  try {
    expect((await send(chatRequest({ message: CONTACT_MESSAGE }), { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })).statusCode).toBe(500);
  } finally {
    svc.deps.handoff.enqueue = enqueue;
  }

  await waitFor(() => (svc.logs.some((l) => l.includes('handoff dead-lettered')) ? true : undefined), 5_000, 'the handoff to be dead-lettered');
  await svc.close();
}, 20_000);

afterAll(async () => {
  await svc.close().catch(() => undefined);
});

const lines = (): LogLine[] => svc.logs.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogLine);

describe('logs at LOG_LEVEL=trace', () => {
  it('hold no secret, contact detail or message text, at any level', () => {
    expect(lines().length).toBeGreaterThan(10);
    expect(leaks(svc.logs.join(''))).toEqual([]);
  });

  it('write one "request completed" line per request, with status, total ms and per-step ms', () => {
    const completed = lines().filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(8);
    for (const { traceId, status } of answered) {
      const line = completed.find((l) => l.trace_id === traceId);
      expect(line, traceId).toBeDefined();
      expect(line!.status).toBe(status);
      expect(line!.ms).toBeGreaterThan(0);
      expect(line!.route).toBe('/chat_adapter');
    }
    const ok = completed.find((l) => l.status === 200)!;
    expect(Object.keys(ok.steps as object)).toContain('askEngine');
  });

  it('tag every line of a request, and the background handoff lines, with the response trace_id', () => {
    const all = lines();
    const traceIds = new Set(answered.map((a) => a.traceId));
    expect(traceIds.size).toBe(answered.length);
    expect(traceIds).toContain('0af7651916cd43dd8448eb211c80319c');
    // Every line that has an id, and every line about a request, a handoff or a translation, must have the response's.
    const requestLines = all.filter((l) => l.trace_id !== undefined || /^request |handoff|translation/.test(l.msg));
    expect(requestLines.length).toBeGreaterThan(10);
    for (const line of requestLines) {
      expect(line.trace_id, JSON.stringify(line)).toMatch(/^[0-9a-f]{32}$/);
      expect(traceIds, JSON.stringify(line)).toContain(line.trace_id);
      // Once only: a duplicated key would make the line ambiguous.
      const raw = svc.logs.join('').split('\n').find((l) => l.includes(`"msg":"${line.msg}"`) && l.includes(line.trace_id!))!;
      expect(raw.match(/"trace_id"/g)).toHaveLength(1);
    }
    const handoffLines = all.filter((l) => /^handoff (queued|delivery failed|dead-lettered)/.test(l.msg));
    expect(handoffLines.filter((l) => l.msg === 'handoff dead-lettered')).toHaveLength(1);
    expect(handoffLines.filter((l) => l.msg.startsWith('handoff delivery failed')).length).toBeGreaterThanOrEqual(1);
    const translation = all.filter((l) => /^translation failed/.test(l.msg));
    expect(translation).toHaveLength(1);
    expect(new Set(handoffLines.map((l) => l.trace_id))).toEqual(new Set([translation[0]!.trace_id]));
  });

  it('log a defect at error with its name and frames, and expected failures at warn', () => {
    const failed = lines().filter((l) => l.msg === 'request failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 50, status: 500, error: 'StepError', reason: 'step startHandoff failed: TypeError' });
    expect(String(failed[0]!.stack)).toMatch(/^ {4}at /);
    const rejected = lines().filter((l) => l.msg === 'request rejected');
    expect(rejected.map((l) => l.status).sort()).toEqual([400, 400, 400]);
    expect(rejected.every((l) => l.level === 40)).toBe(true);
    // A party that is down is logged as that party's failure, not as a rejected request.
    const down = lines().filter((l) => l.msg === 'graphql unavailable');
    expect(down).toHaveLength(1);
    expect(down[0]).toMatchObject({ level: 40, status: 503, party: 'graphql', error: 'DownstreamError', reason: expect.stringMatching(/^graphql: /) });
  });
});

describe('logs at LOG_LEVEL=trace with CALLER_API_KEYS and ADMIN_API_KEY set', () => {
  const WEB_KEY = 'web-LOGGED-never-0123456789';
  const PARTNER_KEY = 'partner-LOGGED-never-9876543210';
  const GUESSED_KEY = 'guessed-LOGGED-never-5555555555';
  const ADMIN_KEY = 'admin-LOGGED-never-4444444444';
  const GUESSED_ADMIN_KEY = 'admin-LOGGED-never-4444444445';
  let keyed: StubbedService;
  beforeAll(async () => {
    keyed = await startStubbedService({
      LOG_LEVEL: 'trace',
      CALLER_API_KEYS: `web:${WEB_KEY},partner:${PARTNER_KEY}:1234123412341234123`,
      ADMIN_API_KEY: ADMIN_KEY,
      RATE_LIMIT_SESSION_PER_MIN: '1',
    });
    const send = (key: string, payload: unknown) =>
      keyed.app.inject({ method: 'POST', url: '/chat_adapter', payload: payload as object, headers: { authorization: `Bearer ${key}` } });
    const session = chatRequest({ message: CONTACT_MESSAGE });
    expect((await send(WEB_KEY, session)).statusCode).toBe(200);
    expect((await send(WEB_KEY, session)).statusCode).toBe(429);
    expect((await send(GUESSED_KEY, session)).statusCode).toBe(401);
    expect((await send(PARTNER_KEY, chatRequest({ message: CONTACT_MESSAGE }))).statusCode).toBe(403);
    expect((await send(WEB_KEY, { ...chatRequest(), schedule_information: JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) as object })).statusCode).toBe(400);
    const admin = (key: string) => keyed.app.inject({ method: 'GET', url: '/admin/handoffs?status=dead', headers: { authorization: `Bearer ${key}` } });
    expect((await admin(ADMIN_KEY)).statusCode).toBe(200);
    expect((await admin(GUESSED_ADMIN_KEY)).statusCode).toBe(401);
    // A caller key is no admin key, nor the other way round.
    expect((await admin(WEB_KEY)).statusCode).toBe(401);
    expect((await send(ADMIN_KEY, chatRequest())).statusCode).toBe(401);
    await keyed.close();
  }, 20_000);

  it('hold neither the caller keys, the admin key, nor a presented unknown key, and name the caller on its request lines', () => {
    const text = keyed.logs.join('');
    for (const key of [WEB_KEY, PARTNER_KEY, GUESSED_KEY, ADMIN_KEY, GUESSED_ADMIN_KEY]) expect(text).not.toContain(key);
    // Not even a part of one (the shared prefix is not secret).
    expect(text).not.toMatch(/never-\d{6}/);
    expect(leaks(text)).toEqual([]);
    const completed = text.split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogLine).filter((l) => l.msg === 'request completed');
    expect(completed.map((l) => [l.route, l.status, l.caller])).toEqual([
      ['/chat_adapter', 200, 'web'],
      ['/chat_adapter', 429, 'web'],
      ['/chat_adapter', 401, undefined],
      ['/chat_adapter', 403, 'partner'],
      ['/chat_adapter', 400, 'web'],
      ['/admin/handoffs', 200, undefined],
      ['/admin/handoffs', 401, undefined],
      ['/admin/handoffs', 401, undefined],
      ['/chat_adapter', 401, undefined],
    ]);
  });
});
