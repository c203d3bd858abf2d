/**
 * Stopping a streamed reply (docs/api.md#stopping-a-streamed-reply) as a front-end sees it: the
 * engine call is aborted, the stream ends with the protocol's `abort` part, the text the visitor
 * saw is stored as the answer marked `stopped`, no handoff is started, and the session's next
 * message goes at once. A stop of another turn or of a turn that ended changes nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { type EngineWrites, getStream, listenOnLoopback, partsOfType, postChat, streamEngineReply, textOf } from './stream-helpers.ts';

const SENTENCES = ['I will ask a person from the office to call you.', 'They usually answer within the hour.', 'Thank you for your patience.', 'Have a good day.'];
const { response: _r, ...handoffMembers } = engineReply({ retrieval_type: 'rag', intent: 'maintenance', sub_intent: 'agent_hand_off' });

let svc: StubbedService;
let base: string;
let n = 0;
const newConversation = () => `30000000000000${String((n += 1)).padStart(5, '0')}`;

beforeAll(async () => {
  svc = await startStubbedService();
  base = await listenOnLoopback(svc.app);
});
afterAll(async () => {
  await svc.close();
});

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

function stored(sessionId: string): Record<string, unknown>[] {
  return svc.stubs.graphql.requests
    .map((r) => (r.body as { variables?: { input?: Record<string, unknown> } }).variables?.input)
    .filter((input): input is Record<string, unknown> => input?.['sessionId'] === sessionId && input['role'] !== undefined);
}

const stop = (conversation: string, payload: object) =>
  svc.app.inject({ method: 'POST', url: `/chat_adapter/${conversation}/stop`, payload });

describe('stopping a streamed reply', () => {
  it('aborts the engine call, ends with an abort part, stores what the visitor saw as stopped, hands nothing off, lets the next message go', async () => {
    const writes: EngineWrites = { deltaAt: [], doneAt: undefined };
    let engineClosed = false;
    svc.stubs.engine.handle((req, res) => {
      if ((req.body as { message: string }).message.startsWith('next')) return sendJson(res, 200, engineReply({ response: 'The next answer.' }));
      res.on('close', () => (engineClosed = true));
      return streamEngineReply(res, { deltas: SENTENCES.map((s) => `${s} `), done: handoffMembers, gapMs: 400 }, writes);
    });
    const conversation = newConversation();
    const body = chatRequest({ conversation_id: conversation });
    const session = String(body['session_id']);
    const handoffsBefore = svc.stubs.handoff.requests.length;
    let messageId: string | undefined;
    let texts = 0;
    const chat = postChat(base, body, {
      onPart: (part) => {
        if (part['type'] === 'start') messageId = part['messageId'] as string;
        if (part['type'] === 'text-delta') texts += 1;
      },
    });
    await until(() => texts >= 2);

    // Another turn's id (a stop meant for an earlier reply) changes nothing.
    const other = await stop(conversation, { message_id: 'some-other-turn:answer' });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual({ stopped: false });

    const stopped = await stop(conversation, { message_id: messageId });
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json()).toEqual({ stopped: true });

    const answer = await chat;
    expect(answer.done).toBe(true);
    expect(partsOfType(answer, 'abort')).toHaveLength(1);
    expect(partsOfType(answer, 'finish')).toHaveLength(0);
    expect(partsOfType(answer, 'data-chat')).toHaveLength(0);
    const seen = textOf(answer);
    expect(seen.length).toBeGreaterThan(0);
    expect(SENTENCES.join(' ').startsWith(seen.trimEnd())).toBe(true);
    expect(seen.trimEnd()).not.toBe(SENTENCES.join(' '));
    await until(() => engineClosed);
    expect(writes.doneAt).toBeUndefined();
    // Counted as a stop, not as an engine failure.
    expect(await svc.metrics.registry.getSingleMetricAsString('chat_adapter_streams_total')).toMatch(/outcome="stopped"} 1/);
    const engineErrors = await svc.metrics.registry.getSingleMetricAsString('chat_adapter_downstream_errors_total');
    expect(engineErrors).toMatch(/party="engine",reason="stopped"} 1/);
    expect(engineErrors).not.toMatch(/party="engine",reason="timeout"}/);

    await until(() => stored(session).length === 2);
    const [question, kept] = stored(session);
    expect(question).toMatchObject({ role: 'USER', content: 'What are your office hours?' });
    expect(question!['stopped']).toBeUndefined();
    expect(kept).toMatchObject({ role: 'ASSISTANT', content: seen, stopped: true, clientMessageKey: messageId });

    // The session's next message goes at once, and is stored after the stopped turn.
    const startedNext = performance.now();
    const next = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: { ...body, message: 'next question' } });
    expect(next.statusCode).toBe(200);
    expect(performance.now() - startedNext).toBeLessThan(2_000);
    expect(stored(session).map((i) => i['role'])).toEqual(['USER', 'ASSISTANT', 'USER', 'ASSISTANT']);
    // The engine's next history (the caller sent none) is what the visitor saw, stopped reply included.
    const engineAsked = () => svc.stubs.engine.requests.map((r) => r.body as { message: string; history: unknown[] }).filter((b) => b.message.startsWith('next'));
    expect(engineAsked().at(-1)!.history).toEqual([
      { role: 'user', content: 'What are your office hours?' },
      { role: 'assistant', content: seen },
    ]);
    // A stopped reply is never reused: the same question again is asked of the engine.
    const enginesBefore = svc.stubs.engine.requests.length;
    svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    const again = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: body });
    expect(again.statusCode).toBe(200);
    expect(svc.stubs.engine.requests.length).toBe(enginesBefore + 1);

    await sleep(300);
    expect(svc.stubs.handoff.requests.slice(handoffsBefore).filter((r) => (r.body as { session_id?: string }).session_id === session)).toHaveLength(0);

    // Stopping again: the turn has ended; a resumer sees the stopped reply as it was.
    expect((await stop(conversation, { message_id: messageId })).json()).toEqual({ stopped: false });
    expect((await stop(conversation, {})).json()).toEqual({ stopped: false });
    const replay = await getStream(base, `/chat_adapter/${conversation}/stream`);
    expect(partsOfType(replay, 'abort')).toHaveLength(1);
    expect(textOf(replay)).toBe(seen);
  }, 30_000);

  it('answers {"stopped": false} when nothing of the conversation is streaming; a bad body is a 400', async () => {
    expect((await stop(newConversation(), {})).json()).toEqual({ stopped: false });
    const bad = await stop(newConversation(), { message_id: 7 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail.message).toMatch(/message_id/);
  });
});
