/**
 * docs/api.md#streamed-replies through real sockets: the service listens on a loopback port, the engine stub streams
 * its reply over another, and the client reads the UI message stream as it arrives.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { concise } from '../../src/reply/reply-styles.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { type EngineScript, type EngineWrites, listenOnLoopback, partsOfType, postChat, streamEngineReply, textOf } from './stream-helpers.ts';

let svc: StubbedService;
let base: string;

beforeAll(async () => {
  svc = await startStubbedService();
  base = await listenOnLoopback(svc.app);
});
afterAll(async () => {
  await svc.close();
});
beforeEach(() => {
  svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
});

const { response: _omit, ...ragMembers } = engineReply({ retrieval_type: 'rag', intent: 'amenities', sub_intent: 'pool' });
const SENTENCES = ['The rooftop pool is open from nine to ten.', 'Towels are at the front desk.', 'Guests are welcome with a resident.'];

/** The engine streams each sentence as words, `gapMs` apart. */
function script(sentences: readonly string[], gapMs: number, extra: Partial<EngineScript> = {}): EngineScript {
  const deltas = sentences.join(' ').split(/(?<= )/);
  return { deltas, done: ragMembers, gapMs, ...extra };
}

function streamingEngine(s: EngineScript): EngineWrites {
  const writes: EngineWrites = { deltaAt: [], doneAt: undefined };
  svc.stubs.engine.handle((_req, res) => streamEngineReply(res, s, writes));
  return writes;
}

/** The messages stored for one session, in the order the store received them. */
function stored(sessionId: string): { role: string; content: string }[] {
  return svc.stubs.graphql.requests
    .map((r) => (r.body as { variables?: { input?: Record<string, unknown> } }).variables?.input)
    .filter((input): input is Record<string, unknown> => input?.['sessionId'] === sessionId && input['role'] !== undefined)
    .map((input) => ({ role: String(input['role']), content: String(input['content']) }));
}

describe('a streamed chat (UI message stream v1)', () => {
  it('answers with the protocol headers and parts, the text joined being the JSON answer of the same turn', async () => {
    streamingEngine(script(SENTENCES, 5));
    const body = chatRequest();
    const key = `stream-${Date.now()}`;
    const answer = await postChat(base, body, { headers: { 'idempotency-key': key } });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream');
    expect(answer.headers['x-vercel-ai-ui-message-stream']).toBe('v1');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.headers['x-accel-buffering']).toBe('no');
    expect(answer.headers['content-encoding']).toBeUndefined();
    // Headers the chat's hooks set before the stream opened go out with it.
    expect(answer.headers['ratelimit-limit']).toBe('30');
    expect(answer.done).toBe(true);

    const types = answer.parts.map((p) => p.part['type']);
    expect(types[0]).toBe('start');
    expect(types.at(-1)).toBe('finish');
    expect(types.filter((t) => t === 'text-start')).toHaveLength(1);
    expect(types.indexOf('text-start')).toBeLessThan(types.indexOf('text-end'));
    expect(types.lastIndexOf('text-delta')).toBeLessThan(types.indexOf('text-end'));
    expect(types.indexOf('text-end')).toBeLessThan(types.indexOf('data-chat'));
    const steps = partsOfType(answer, 'data-step').map((p) => p.part);
    expect(steps.map((s) => (s['data'] as { name: string }).name)).toEqual(expect.arrayContaining(['waitForTurn', 'validateRequest', 'askEngine', 'storeAnswer']));
    expect(steps.every((s) => s['transient'] === true && typeof (s['data'] as { ms: unknown }).ms === 'number')).toBe(true);

    const chat = partsOfType(answer, 'data-chat')[0]!.part['data'] as Record<string, unknown>;
    expect(textOf(answer)).toBe(chat['response']);
    expect(chat['response']).toBe(SENTENCES.join(' '));
    expect(answer.parts[0]!.part['messageId']).toMatch(/^[0-9a-f-]{36}:answer$/);
    // The same turn asked again as JSON: the kept answer, byte for byte the data-chat part.
    const replay = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: body, headers: { 'idempotency-key': key } });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(chat);
    expect(stored(String(body['session_id']))).toEqual([
      { role: 'USER', content: 'What are your office hours?' },
      { role: 'ASSISTANT', content: chat['response'] },
    ]);
  });

  it('streams only when the caller prefers an event stream to JSON', async () => {
    const json = await postChat(base, chatRequest(), { headers: { accept: 'application/json, text/event-stream;q=0.5' } });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(json.text).response).toBe(engineReply().response);
    const both = await postChat(base, chatRequest(), { headers: { accept: 'text/event-stream, application/json' } });
    expect(both.headers['content-type']).toBe('text/event-stream');
    const refused = await postChat(base, chatRequest(), { headers: { accept: 'text/event-stream;q=0, */*' } });
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
  });

  it('fails before the stream as the ordinary JSON error', async () => {
    const empty = await postChat(base, chatRequest({ message: '   ' }));
    expect(empty.status).toBe(400);
    expect(empty.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(empty.text).detail.message).toMatch(/message/);
    const noOrg = await postChat(base, { ...chatRequest(), orgId: 'x' });
    expect(noOrg.status).toBe(400);
    const key = `mismatch-${Date.now()}`;
    expect((await postChat(base, chatRequest(), { headers: { 'idempotency-key': key } })).status).toBe(200);
    const mismatch = await postChat(base, chatRequest(), { headers: { 'idempotency-key': key } });
    expect(mismatch.status).toBe(422);
    expect(JSON.parse(mismatch.text)).toEqual({ detail: expect.any(String) });
  });

  it('delivers the first sentence before the engine finishes, whole sentences, each as soon as it is made', async () => {
    const writes = streamingEngine(script(SENTENCES, 60));
    const answer = await postChat(base, chatRequest());
    const deltas = partsOfType(answer, 'text-delta');
    expect(deltas.map((d) => d.part['delta'])).toEqual([SENTENCES[0], ` ${SENTENCES[1]}`, ` ${SENTENCES[2]}`]);
    expect(writes.doneAt).toBeDefined();
    // Measured: the first text was on the client before the engine wrote its final event.
    expect(deltas[0]!.at).toBeLessThan(writes.doneAt!);
    // Each sentence (bar the last, which ends the reply) is released by the engine event that
    // carries its last word and the space after it, and reaches the client without waiting for
    // any later engine event (the next word is written 60 ms later).
    const wordsOf = (s: string) => s.split(' ').length;
    const lastWordOf = [wordsOf(SENTENCES[0]!) - 1, wordsOf(SENTENCES[0]!) + wordsOf(SENTENCES[1]!) - 1];
    for (const [i, wordIndex] of lastWordOf.entries()) {
      const written = writes.deltaAt[wordIndex]!;
      expect(deltas[i]!.at).toBeGreaterThanOrEqual(written);
      expect(deltas[i]!.at).toBeLessThan(writes.deltaAt[wordIndex + 1] ?? writes.doneAt!);
    }
  });

  it('keeps the 500-character rule while streaming: whole sentences up to the limit, the same as JSON', async () => {
    const sentence = 'Every apartment has an in-unit washer and dryer and a private balcony.';
    const many = Array.from({ length: 12 }, (_, i) => `${sentence.slice(0, -1)} number ${i + 1}.`);
    streamingEngine(script(many, 1));
    const answer = await postChat(base, chatRequest());
    const text = textOf(answer);
    expect(text).toBe(concise(many.join(' ')));
    expect(text.length).toBeLessThanOrEqual(500);
    for (const d of partsOfType(answer, 'text-delta')) expect(d.part['delta']).toMatch(/\.$/);
    expect((partsOfType(answer, 'data-chat')[0]!.part['data'] as { response: string }).response).toBe(text);
  });

  it('streams a JSON engine answer as one delta, and a reply without a named style once complete', async () => {
    const json = await postChat(base, chatRequest());
    expect(partsOfType(json, 'text-delta').map((d) => d.part['delta'])).toEqual([engineReply().response]);
    streamingEngine(script(SENTENCES, 5, { announce: false }));
    const unnamed = await postChat(base, chatRequest());
    expect(partsOfType(unnamed, 'text-delta').map((d) => d.part['delta'])).toEqual([SENTENCES.join(' ')]);
  });

  it('an engine failing mid-stream: an error part, no answer stored, the session next turn not blocked', async () => {
    streamingEngine(script(SENTENCES, 20, { failAfter: 12 }));
    const body = chatRequest();
    const failed = await postChat(base, body);
    expect(failed.status).toBe(200);
    const types = failed.parts.map((p) => p.part['type']);
    expect(types.slice(-2)).toEqual(['error', 'finish']);
    expect(failed.done).toBe(true);
    expect(partsOfType(failed, 'error')[0]!.part['errorText']).toBe('engine unavailable');
    expect(types).not.toContain('data-chat');
    expect(stored(String(body['session_id'])).filter((m) => m.role === 'ASSISTANT')).toEqual([]);
    expect(await svc.metrics.registry.getSingleMetricAsString('chat_adapter_streams_total')).toMatch(/outcome="failed"} [1-9]/);

    svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    const started = performance.now();
    const next = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: { ...body, message: 'And on weekends?' } });
    expect(next.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
