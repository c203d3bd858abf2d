/**
 * The turn is the turn (docs/api.md#streamed-replies, docs/api.md#idempotency, docs/operations.md#handoffs-and-dead-letters, docs/api.md#one-turn-at-a-time-per-session): a caller that leaves mid-stream does not cancel
 * it; it is stored once, its handoff delivered, and a retry with the same Idempotency-Key replays
 * it (as a stream or as JSON); streamed and JSON turns of one session keep their order.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { type EngineWrites, eventsOf, listenOnLoopback, partsOfType, postChat, streamEngineReply, textOf } from './stream-helpers.ts';

let svc: StubbedService;
let base: string;

beforeAll(async () => {
  svc = await startStubbedService();
  base = await listenOnLoopback(svc.app);
});
afterAll(async () => {
  await svc.close();
});

const { response: _omit, ...handoffMembers } = engineReply({ retrieval_type: 'rag', intent: 'maintenance', sub_intent: 'agent_hand_off' });
const SENTENCES = ['I will ask a person from the office to call you.', 'They usually answer within the hour.', 'Thank you for your patience.'];

function stored(sessionId: string): { role: string; content: string }[] {
  return svc.stubs.graphql.requests
    .map((r) => (r.body as { variables?: { input?: Record<string, unknown> } }).variables?.input)
    .filter((input): input is Record<string, unknown> => input?.['sessionId'] === sessionId && input['role'] !== undefined)
    .map((input) => ({ role: String(input['role']), content: String(input['content']) }));
}

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** Feeds a stream's text to the `ai` package's own reader; the last message it assembled. */
async function assembled(text: string): Promise<UIMessage | undefined> {
  const chunks = eventsOf(text).parts as UIMessageChunk[];
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream, onError: (err) => { throw err; } })) last = message;
  return last;
}

describe('a streamed turn', () => {
  it('is not cancelled by a caller that leaves: stored once, handed off, replayed by its Idempotency-Key', async () => {
    const writes: EngineWrites = { deltaAt: [], doneAt: undefined };
    const deltas = SENTENCES.join(' ').split(/(?<= )/);
    svc.stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas, done: handoffMembers, gapMs: 25 }, writes));
    const body = chatRequest();
    const session = String(body['session_id']);
    const key = `leave-${Date.now()}`;
    const handoffsBefore = svc.stubs.handoff.requests.length;

    const left = await postChat(base, body, { headers: { 'idempotency-key': key }, onPart: (part) => part['type'] === 'text-delta' });
    expect(partsOfType(left, 'text-delta')).toHaveLength(1);
    expect(writes.doneAt).toBeUndefined();

    // A handoff turn looks for contact details: the first one loads the language libraries (seconds on a busy machine).
    await until(() => stored(session).length === 2, 15_000);
    await until(() => svc.stubs.handoff.requests.length > handoffsBefore);
    const handoff = svc.stubs.handoff.requests.at(-1)!.body as Record<string, unknown>;
    expect(handoff['session_id']).toBe(session);
    expect(handoff['sub_intent']).toBe('agent_hand_off');

    // Asked again as a stream: the kept answer, nothing run or stored again.
    const engineCalls = svc.stubs.engine.requests.length;
    const replay = await postChat(base, body, { headers: { 'idempotency-key': key } });
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['content-type']).toBe('text/event-stream');
    const kept = partsOfType(replay, 'data-chat')[0]!.part['data'] as Record<string, unknown>;
    expect(textOf(replay)).toBe(SENTENCES.join(' '));
    expect(kept['response']).toBe(SENTENCES.join(' '));
    expect(kept['agent_handoff']).toEqual({ requested: true, reason: 'agent_hand_off' });
    expect(replay.parts[0]!.part).toEqual(left.parts[0]!.part);
    const message = await assembled(replay.text);
    expect(message?.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('')).toBe(kept['response']);

    // And as JSON: the same kept answer.
    const json = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: body, headers: { 'idempotency-key': key } });
    expect(json.json()).toEqual(kept);
    expect(svc.stubs.engine.requests.length).toBe(engineCalls);
    await sleep(100);
    expect(stored(session)).toEqual([
      { role: 'USER', content: 'What are your office hours?' },
      { role: 'ASSISTANT', content: SENTENCES.join(' ') },
    ]);
    expect(svc.stubs.handoff.requests.filter((r) => (r.body as { session_id?: string }).session_id === session)).toHaveLength(1);
    expect(await svc.metrics.registry.getSingleMetricAsString('chat_adapter_streams_total')).toMatch(/outcome="client_gone"} 1/);
  }, 30_000);

  it('keeps the session order for streamed and JSON turns sent together', async () => {
    const deltas = 'One moment please. Here is the answer.'.split(/(?<= )/);
    const { response: _r, ...members } = engineReply({ retrieval_type: 'rag' });
    svc.stubs.engine.handle((req, res) => {
      const message = (req.body as { message: string }).message;
      if (message.startsWith('first')) return streamEngineReply(res, { deltas, done: members, gapMs: 30 }, { deltaAt: [], doneAt: undefined });
      sendJson(res, 200, engineReply({ response: `answer to ${message}` }));
    });
    const body = chatRequest();
    const session = String(body['session_id']);
    const first = postChat(base, { ...body, message: 'first, streamed' });
    await sleep(30);
    const second = svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: { ...body, message: 'second, JSON' } });
    await sleep(10);
    const third = postChat(base, { ...body, message: 'third, streamed' });
    const [a, b, c] = await Promise.all([first, second, third]);
    expect([a.status, b.statusCode, c.status]).toEqual([200, 200, 200]);
    expect(stored(session)).toEqual([
      { role: 'USER', content: 'first, streamed' },
      { role: 'ASSISTANT', content: 'One moment please. Here is the answer.' },
      { role: 'USER', content: 'second, JSON' },
      { role: 'ASSISTANT', content: 'answer to second, JSON' },
      { role: 'USER', content: 'third, streamed' },
      { role: 'ASSISTANT', content: 'answer to third, streamed' },
    ]);
  });
});
