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
  svc = await startStubbedService({ LOG_LEVEL: 'trace' });
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
  const dispatch = svc.deps.handoff.dispatch;
  svc.deps.handoff.dispatch = (payload) => {
    throw new TypeError(`cannot dispatch ${payload.message} ${JSON.stringify(payload.contact)}`);
  };
  try {
    expect((await send(chatRequest({ message: CONTACT_MESSAGE }), { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' })).statusCode).toBe(500);
  } finally {
    svc.deps.handoff.dispatch = dispatch;
  }

  await waitFor(() => (svc.logs.some((l) => l.includes('handoff failed, giving up')) ? true : undefined), 5_000, 'the handoff to be given up');
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
    const handoffLines = all.filter((l) => /^handoff failed/.test(l.msg));
    expect(handoffLines.length).toBe(4);
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
    expect(rejected.map((l) => l.status).sort()).toEqual([400, 400, 400, 503]);
    expect(rejected.every((l) => l.level === 40)).toBe(true);
  });
});
