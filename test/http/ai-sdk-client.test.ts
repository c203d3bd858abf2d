/**
 * A real client of the protocol against the real process: the `ai` package's own
 * DefaultChatTransport (its messages mapped to the chat request by prepareSendMessagesRequest) and
 * readUIMessageStream consume the service's stream. The assembled text is the stored answer; the
 * data-chat part is the JSON answer of the same turn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { spawnService, type ServiceProcess } from '../helpers/service-process.ts';
import { startStubs, stubPartiesEnv, type Stubs } from '../helpers/stubbed-service.ts';
import { streamEngineReply } from './stream-helpers.ts';

let stubs: Stubs;
let service: ServiceProcess;
let base: string;
let dataDir: string;

beforeAll(async () => {
  stubs = await startStubs();
  dataDir = mkdtempSync(join(tmpdir(), 'chat-adapter-stream-'));
  service = spawnService({ ENVIRONMENT: 'qa', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...stubPartiesEnv(stubs) });
  await service.untilOutput('chat adapter listening');
  const line = service.stdout().split('\n').find((l) => l.includes('chat adapter listening'))!;
  base = String((JSON.parse(line) as { url: string }).url);
}, 30_000);
afterAll(async () => {
  service.child.kill('SIGTERM');
  await service.exited;
  await Promise.all(Object.values(stubs).map((s) => s.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

const REPLY = ['The gym is open all day.', 'Residents use their key fob.', 'Guests need to sign in at the desk.'];

/** A transport as a front-end would set it up: the visitor's last message becomes the chat request. */
function transport(body: Record<string, unknown>, key: string) {
  return new DefaultChatTransport<UIMessage>({
    api: `${base}/chat_adapter`,
    headers: { accept: 'text/event-stream', 'idempotency-key': key },
    prepareSendMessagesRequest: ({ messages }) => {
      const last = messages.at(-1);
      const text = last?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
      return { body: { ...body, message: text } };
    },
  });
}

describe('the ai package as the client (DefaultChatTransport, readUIMessageStream)', () => {
  it('assembles the stored answer, and carries the JSON answer of the same turn', async () => {
    const { response: _r, ...members } = engineReply({ retrieval_type: 'rag', intent: 'amenities', sub_intent: 'gym' });
    stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas: REPLY.join(' ').split(/(?<= )/), done: members, gapMs: 10 }, { deltaAt: [], doneAt: undefined }));
    const body = chatRequest();
    const key = `ai-sdk-${Date.now()}`;
    const stream = await transport(body, key).sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-1',
      messageId: undefined,
      abortSignal: undefined,
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'When is the gym open?' }] }],
    });
    const seen: UIMessage[] = [];
    for await (const message of readUIMessageStream({ stream, onError: (err) => { throw err; } })) seen.push(structuredClone(message));
    const final = seen.at(-1)!;
    const text = final.parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
    const chat = final.parts.find((p) => p.type === 'data-chat') as { data: Record<string, unknown> } | undefined;
    // The message grew as the text came (the reader saw partial text before the whole).
    expect(seen.some((m) => m.parts.some((p) => p.type === 'text' && p.text !== '' && p.text !== text))).toBe(true);
    // Progress parts are transient: never kept in the message.
    expect(final.parts.some((p) => p.type === 'data-step')).toBe(false);
    expect(final.id).toMatch(/:answer$/);

    const storedAnswer = stubs.graphql.requests
      .map((r) => (r.body as { variables: { input: Record<string, unknown> } }).variables.input)
      .find((input) => input['sessionId'] === body['session_id'] && input['role'] === 'ASSISTANT');
    expect(text).toBe(REPLY.join(' '));
    expect(text).toBe(storedAnswer?.['content']);

    const json = await fetch(`${base}/chat_adapter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ ...body, message: 'When is the gym open?' }),
    });
    expect(json.headers.get('idempotent-replayed')).toBe('true');
    expect(chat?.data).toEqual(await json.json());
  });

  it('assembles an error part into a well-formed message when the engine fails mid-stream', async () => {
    const { response: _r, ...members } = engineReply({ retrieval_type: 'rag' });
    stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas: REPLY.join(' ').split(/(?<= )/), done: members, gapMs: 10, failAfter: 8 }, { deltaAt: [], doneAt: undefined }));
    const errors: string[] = [];
    const stream = await transport(chatRequest(), `ai-sdk-fail-${Date.now()}`).sendMessages({
      trigger: 'submit-message',
      chatId: 'chat-2',
      messageId: undefined,
      abortSignal: undefined,
      messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Is there a gym?' }] }],
    });
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream, onError: (err) => errors.push(String(err)) })) last = message;
    expect(last?.parts.filter((p) => p.type === 'text').map((p) => p.text).join('')).toBe(REPLY[0]);
    expect(last?.parts.some((p) => p.type === 'data-chat')).toBe(false);
    expect(errors).toEqual([expect.stringContaining('engine unavailable')]);
  });
});
