/**
 * `useChat({ resume: true })` as the AI SDK itself does it (the `ai` package's AbstractChat with
 * DefaultChatTransport, the code under `@ai-sdk/react`'s useChat): a page reloaded mid-reply
 * resumes with `GET /chat_adapter/{id}/stream` and ends with the whole reply once; a page reloaded
 * just after the reply ended, holding it already, still has it once; nothing in flight: 204, the
 * messages untouched. The stop route ends the reply with an abort part the SDK shows as it was.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { AbstractChat, DefaultChatTransport, type ChatState, type ChatStatus, type UIMessage } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { listenOnLoopback, streamEngineReply } from './stream-helpers.ts';

const SENTENCES = ['The laundry room is on the ground floor.', 'It is open from seven to ten.', 'Machines take cards.', 'Please remove your clothes promptly.'];
const { response: _r, ...members } = engineReply({ retrieval_type: 'rag' });
let svc: StubbedService;
let base: string;
let n = 0;
const newConversation = () => `50000000000000${String((n += 1)).padStart(5, '0')}`;

beforeAll(async () => {
  svc = await startStubbedService();
  base = await listenOnLoopback(svc.app);
  svc.stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas: SENTENCES.map((s) => `${s} `), done: members, gapMs: 200 }, { deltaAt: [], doneAt: undefined }));
});
afterAll(async () => {
  await svc.close();
});

/** The state a framework binding keeps (useChat's is React state); here a plain array. */
class ArrayState implements ChatState<UIMessage> {
  status: ChatStatus = 'ready';
  error: Error | undefined = undefined;
  messages: UIMessage[];
  constructor(messages: UIMessage[]) {
    this.messages = messages;
  }
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = this.messages.map((m, i) => (i === index ? message : m));
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

class Chat extends AbstractChat<UIMessage> {
  constructor(conversation: string, messages: UIMessage[] = []) {
    const body = chatRequest({ conversation_id: conversation, session_id: 'fake_service_session_id' });
    super({
      id: conversation,
      state: new ArrayState(messages),
      transport: new DefaultChatTransport<UIMessage>({
        api: `${base}/chat_adapter`,
        headers: { accept: 'text/event-stream' },
        prepareSendMessagesRequest: ({ messages: all }) => ({
          body: { ...body, message: all.at(-1)?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '' },
        }),
      }),
    });
  }
  get all(): UIMessage[] {
    return this.messages;
  }
}

const textOf = (message: UIMessage | undefined) => message?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
const WHOLE = SENTENCES.join(' ');

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('the AI SDK chat, resumed', () => {
  it('a page reloaded mid-reply ends with the whole reply, once', async () => {
    const conversation = newConversation();
    const first = new Chat(conversation);
    const sent = first.sendMessage({ text: 'When is the laundry room open?' });
    await until(() => textOf(first.all.at(-1)).length > 0 && first.all.at(-1)?.role === 'assistant');
    const question = first.all[0]!;
    // The reloaded page: it kept the question, not the reply on its way.
    const reloaded = new Chat(conversation, [question]);
    await reloaded.resumeStream();
    await sent;
    expect(reloaded.all.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(textOf(reloaded.all[1])).toBe(WHOLE);
    expect(reloaded.all[1]!.id).toBe(first.all[1]!.id);
    expect(reloaded.status).toBe('ready');
  }, 20_000);

  it('a page that already has the ended reply still has it once after resuming', async () => {
    const conversation = newConversation();
    const first = new Chat(conversation);
    await first.sendMessage({ text: 'When is the laundry room open?' });
    expect(textOf(first.all[1])).toBe(WHOLE);
    const reloaded = new Chat(conversation, structuredClone(first.all));
    await reloaded.resumeStream();
    expect(reloaded.all.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(textOf(reloaded.all[1])).toBe(WHOLE);
  }, 20_000);

  it('nothing in flight: the messages stay as they were', async () => {
    const page = new Chat(newConversation(), []);
    await page.resumeStream();
    expect(page.all).toEqual([]);
    expect(page.status).toBe('ready');
  });

  it('a stopped reply keeps the text received so far', async () => {
    const conversation = newConversation();
    const chat = new Chat(conversation);
    const sent = chat.sendMessage({ text: 'When is the laundry room open?' });
    await until(() => chat.all.at(-1)?.role === 'assistant' && textOf(chat.all.at(-1)).length > 0);
    const messageId = chat.all.at(-1)!.id;
    const res = await fetch(`${base}/chat_adapter/${conversation}/stop`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message_id: messageId }) });
    expect(await res.json()).toEqual({ stopped: true });
    await sent;
    const kept = textOf(chat.all.at(-1));
    expect(kept.length).toBeGreaterThan(0);
    expect(WHOLE.startsWith(kept.trimEnd())).toBe(true);
    expect(kept.trimEnd()).not.toBe(WHOLE);
  }, 20_000);
});
