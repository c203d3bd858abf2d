/**
 * Resuming a streamed reply (docs/api.md#resuming-a-streamed-reply) as a front-end sees it: the
 * connection of a streamed chat drops, `GET /chat_adapter/{conversation_id}/stream` gives the same
 * reply from its `start` (same messageId) through its live parts to `[DONE]`; `Last-Event-ID`
 * resumes after a part; an ended turn replays whole for a minute; nothing streaming is 204; caller
 * keys and their organisations are checked as for the chat.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLER_API_KEY, chatRequest, engineReply } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/redis-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { eventsOf, getStream, idsOf, listenOnLoopback, partsOfType, postChat, streamEngineReply, textOf } from './stream-helpers.ts';

const SENTENCES = ['The pool opens at nine.', 'It closes at eight in the evening.', 'Towels are at the front desk.', 'Children need an adult with them.'];
const { response: _r, ...members } = engineReply({ retrieval_type: 'rag' });
const ORG = '9876543210987654321';
let n = 0;
const newConversation = () => `20000000000000${String((n += 1)).padStart(5, '0')}`;

describe('resuming a streamed reply, in process', () => {
  let svc: StubbedService;
  let base: string;
  beforeAll(async () => {
    svc = await startStubbedService({ ROUTE_PREFIX: '/v1' });
    base = await listenOnLoopback(svc.app);
    svc.stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas: SENTENCES.map((s) => `${s} `), done: members, gapMs: 150 }, { deltaAt: [], doneAt: undefined }));
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers 204 when nothing of the conversation is streaming', async () => {
    const res = await svc.app.inject({ method: 'GET', url: `/chat_adapter/${newConversation()}/stream` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const prefixed = await svc.app.inject({ method: 'GET', url: `/v1/chat_adapter/${newConversation()}/stream` });
    expect(prefixed.statusCode).toBe(204);
  });

  it('refuses a conversation id that is not one, in the detail shape', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/chat_adapter/not-an-id/stream' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail.message).toMatch(/conversation_id/);
  });

  it('gives a caller whose connection dropped the whole reply: the same start, every part once, the live parts, [DONE]', async () => {
    const conversation = newConversation();
    const body = chatRequest({ conversation_id: conversation });
    const left = await postChat(base, body, { onPart: (part) => part['type'] === 'text-delta' });
    const firstIds = idsOf(left.text);
    expect(firstIds.length).toBeGreaterThan(0);
    expect(firstIds).toEqual([...firstIds].sort((a, b) => a - b));

    const resumed = await getStream(base, `/chat_adapter/${conversation}/stream`);
    expect(resumed.status).toBe(200);
    expect(resumed.headers['content-type']).toBe('text/event-stream');
    expect(resumed.headers['x-vercel-ai-ui-message-stream']).toBe('v1');
    expect(resumed.done).toBe(true);
    expect(resumed.parts[0]!.part).toEqual(left.parts[0]!.part);
    expect(textOf(resumed)).toBe(SENTENCES.join(' '));
    const ids = idsOf(resumed.text);
    expect(ids[0]).toBe(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(partsOfType(resumed, 'data-chat')[0]!.part['data']).toMatchObject({ response: SENTENCES.join(' ') });
    expect(resumed.parts.at(-1)!.part).toEqual({ type: 'finish', finishReason: 'stop' });
  }, 20_000);

  it('resumes after the part named by Last-Event-ID, under the route prefix too', async () => {
    const conversation = newConversation();
    let seen = 0;
    const left = await postChat(base, chatRequest({ conversation_id: conversation }), { onPart: (part) => part['type'] === 'text-delta' && ++seen === 2 });
    const lastId = idsOf(left.text).at(-1)!;
    const resumed = await getStream(base, `/v1/chat_adapter/${conversation}/stream`, { headers: { 'last-event-id': String(lastId) } });
    expect(resumed.status).toBe(200);
    expect(idsOf(resumed.text)[0]).toBe(lastId + 1);
    // What the caller had plus what it got: the reply once.
    expect(textOf(left) + textOf(resumed)).toBe(SENTENCES.join(' '));
    expect(resumed.done).toBe(true);
  }, 20_000);

  it('replays a reply that ended less than a minute ago, whole; a bad Last-Event-ID is a 400', async () => {
    const conversation = newConversation();
    const whole = await postChat(base, chatRequest({ conversation_id: conversation }));
    expect(whole.done).toBe(true);
    const again = await getStream(base, `/chat_adapter/${conversation}/stream`);
    expect(again.status).toBe(200);
    // The message's parts, byte for byte and with the same ids; progress parts (transient) are not replayed.
    const kept = (text: string) => text.split('\n\n').filter((block) => block.startsWith('id: ') && !block.includes('"transient":true'));
    expect(kept(again.text)).toEqual(kept(whole.text));
    expect(partsOfType(again, 'data-step')).toHaveLength(0);
    expect(again.done).toBe(true);
    const bad = await svc.app.inject({ method: 'GET', url: `/chat_adapter/${conversation}/stream`, headers: { 'last-event-id': 'x1' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail.message).toMatch(/Last-Event-ID/);
  }, 20_000);

  it('lets at most 8 resumers follow one reply; the next gets 429 with Retry-After', async () => {
    const conversation = newConversation();
    const chat = postChat(base, chatRequest({ conversation_id: conversation }));
    await sleep(200);
    const started = new Set<number>();
    const resumers = Array.from({ length: 8 }, (_, i) => getStream(base, `/chat_adapter/${conversation}/stream`, { onPart: () => void started.add(i) }));
    while (started.size < 8) await sleep(20);
    const ninth = await svc.app.inject({ method: 'GET', url: `/chat_adapter/${conversation}/stream` });
    expect(ninth.statusCode).toBe(429);
    expect(ninth.headers['retry-after']).toBe('1');
    expect(ninth.json()).toEqual({ detail: 'Too Many Requests' });
    const whole = textOf(await chat);
    for (const resumed of await Promise.all(resumers)) expect(textOf(resumed)).toBe(whole);
    // Once they are done, a resumer is served again.
    expect((await getStream(base, `/chat_adapter/${conversation}/stream`)).status).toBe(200);
  }, 20_000);

  it('follows the live parts as they are written, not only once the reply ended', async () => {
    const conversation = newConversation();
    const chat = postChat(base, chatRequest({ conversation_id: conversation }));
    await sleep(300);
    let firstTextAt: number | undefined;
    const resumed = await getStream(base, `/chat_adapter/${conversation}/stream`, {
      onPart: (part) => {
        if (part['type'] === 'text-delta') firstTextAt ??= performance.now();
      },
    });
    const original = await chat;
    const finishedAt = original.parts.at(-1)!.at;
    expect(firstTextAt).toBeDefined();
    // Text arrived well before the reply ended (four sentences 150 ms apart).
    expect(finishedAt - firstTextAt!).toBeGreaterThan(200);
    expect(textOf(resumed)).toBe(textOf(original));
  }, 20_000);
});

describe('resuming while the stream log cannot be read', () => {
  let svc: StubbedService;
  beforeAll(async () => {
    // Redis configured but not there: nothing to read the kept parts from.
    svc = await startStubbedService({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers 503 with Retry-After, in the detail shape, for a resume and a stop', async () => {
    for (const [method, path] of [['GET', 'stream'], ['POST', 'stop']] as const) {
      const res = await svc.app.inject({ method, url: `/chat_adapter/${newConversation()}/${path}`, ...(method === 'POST' && { payload: {} }) });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({ detail: 'stream log unavailable' });
    }
  });
});

describe('resuming with caller keys', () => {
  let svc: StubbedService;
  let base: string;
  const OTHER_KEY = 'other-org-key-0123456789abcdef';
  beforeAll(async () => {
    svc = await startStubbedService({ CALLER_API_KEYS: `web:${CALLER_API_KEY}:${ORG},other:${OTHER_KEY}:1111111111111111111` });
    base = await listenOnLoopback(svc.app);
    svc.stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas: SENTENCES.map((s) => `${s} `), done: members, gapMs: 20 }, { deltaAt: [], doneAt: undefined }));
  });
  afterAll(async () => {
    await svc.close();
  });

  it('needs the key (401), one allowed for the turn\'s organisation (403), and then gives the reply', async () => {
    const conversation = newConversation();
    const auth = { authorization: `Bearer ${CALLER_API_KEY}` };
    const chat = await postChat(base, chatRequest({ conversation_id: conversation }), { headers: auth });
    expect(chat.done).toBe(true);
    const url = `/chat_adapter/${conversation}/stream`;
    const none = await svc.app.inject({ method: 'GET', url });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.json()).toEqual({ detail: 'Unauthorized' });
    const other = await svc.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${OTHER_KEY}` } });
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ detail: 'Forbidden' });
    const stopOther = await svc.app.inject({ method: 'POST', url: `/chat_adapter/${conversation}/stop`, headers: { authorization: `Bearer ${OTHER_KEY}` }, payload: {} });
    expect(stopOther.statusCode).toBe(403);
    const resumed = await getStream(base, url, { headers: auth });
    expect(resumed.status).toBe(200);
    expect(textOf(resumed)).toBe(SENTENCES.join(' '));
  }, 20_000);
});
