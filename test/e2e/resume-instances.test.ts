/**
 * Resume and stop from any instance (docs/api.md#resuming-a-streamed-reply), with two real service
 * processes (`node dist/src/server.js`) on one real redis-server: a caller whose connection to one
 * instance drops gets the whole reply from the other; a resumer on the other instance gets the parts
 * already written and then an `error` part when the producing process is killed (SIGKILL), never a
 * hang; a stop sent to the other instance stops the reply.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERRUPTED_TEXT } from '../../src/http/resume-routes.ts';
import { startInstance, type Instance } from '../cluster/service-instance.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { startStubs, stubPartiesEnv, type Stubs } from '../helpers/stubbed-service.ts';
import { getStream, partsOfType, postChat, streamEngineReply, textOf } from '../http/stream-helpers.ts';

const SENTENCES = ['The gym opens at six.', 'It closes at ten.', 'Bring your key fob.', 'Lockers are free.', 'Showers are on the left.', 'Enjoy your workout.'];
const { response: _r, ...members } = engineReply({ retrieval_type: 'rag' });
let gapMs = 150;

let redis: TestRedis;
let stubs: Stubs;
const instances: Instance[] = [];
const dirs: string[] = [];
let n = 0;
const newConversation = () => `40000000000000${String((n += 1)).padStart(5, '0')}`;

async function instance(env: Record<string, string>): Promise<Instance> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-adapter-resume-'));
  dirs.push(dir);
  const started = await startInstance(instances.length, dir, env);
  instances.push(started);
  // Ready = its Redis connection answered: a chat before that would keep its parts in process.
  for (let i = 0; i < 200 && (await fetch(`${started.url}/ready`)).status !== 200; i++) await sleep(50);
  return started;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(20);
  }
}

let env: Record<string, string>;
beforeAll(async () => {
  redis = await startTestRedis();
  stubs = await startStubs();
  stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas: SENTENCES.map((s) => `${s} `), done: members, gapMs }, { deltaAt: [], doneAt: undefined }));
  env = { ...stubPartiesEnv(stubs), ENVIRONMENT: 'qa', HOST: '127.0.0.1', REDIS_URL: redis.url, DISABLE_TRACING: 'true', LOG_LEVEL: 'info', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' };
}, 60_000);
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop('SIGKILL')));
  await Promise.all(Object.values(stubs ?? {}).map((s) => s.close()));
  await redis?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('two instances on one Redis', () => {
  it('a reply whose connection to one instance dropped is resumed whole on the other', async () => {
    gapMs = 150;
    const [a, b] = [await instance(env), await instance(env)];
    const conversation = newConversation();
    const left = await postChat(a!.url, chatRequest({ conversation_id: conversation }), { onPart: (part) => part['type'] === 'text-delta' });
    const resumed = await getStream(b!.url, `/chat_adapter/${conversation}/stream`);
    expect(resumed.status).toBe(200);
    expect(resumed.parts[0]!.part).toEqual(left.parts[0]!.part);
    expect(textOf(resumed)).toBe(SENTENCES.join(' '));
    expect(partsOfType(resumed, 'data-chat')).toHaveLength(1);
    expect(resumed.parts.at(-1)!.part).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(resumed.done).toBe(true);
    // Nothing streaming on a conversation that never was: 204 from either instance.
    expect((await fetch(`${b!.url}/chat_adapter/${newConversation()}/stream`)).status).toBe(204);
  }, 60_000);

  it('a stop sent to the other instance stops the reply', async () => {
    gapMs = 400;
    const [a, b] = [instances[0]!, instances[1]!];
    const conversation = newConversation();
    let messageId: string | undefined;
    let texts = 0;
    const chat = postChat(a.url, chatRequest({ conversation_id: conversation }), {
      onPart: (part) => {
        if (part['type'] === 'start') messageId = part['messageId'] as string;
        if (part['type'] === 'text-delta') texts += 1;
      },
    });
    await until(() => texts >= 1);
    const stop = await fetch(`${b.url}/chat_adapter/${conversation}/stop`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message_id: messageId }),
    });
    expect(await stop.json()).toEqual({ stopped: true });
    const answer = await chat;
    expect(partsOfType(answer, 'abort')).toHaveLength(1);
    expect(textOf(answer).trimEnd()).not.toBe(SENTENCES.join(' '));
  }, 60_000);

  it('a resumer on the other instance gets the parts so far and an error part when the producing process is killed', async () => {
    gapMs = 600;
    const [a, b] = [instances[0]!, instances[1]!];
    const conversation = newConversation();
    let texts = 0;
    void postChat(a.url, chatRequest({ conversation_id: conversation }), {
      onPart: (part) => {
        if (part['type'] === 'text-delta') texts += 1;
      },
    }).catch(() => undefined);
    await until(() => texts >= 1);
    let resumedTexts = 0;
    const resumed = getStream(b.url, `/chat_adapter/${conversation}/stream`, {
      onPart: (part) => {
        if (part['type'] === 'text-delta') resumedTexts += 1;
      },
    });
    await until(() => resumedTexts >= 2);
    const killedAt = Date.now();
    await a.stop('SIGKILL');
    const answer = await resumed;
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    expect(answer.status).toBe(200);
    expect(partsOfType(answer, 'text-delta').length).toBeGreaterThanOrEqual(2);
    expect(SENTENCES.join(' ').startsWith(textOf(answer))).toBe(true);
    expect(partsOfType(answer, 'error').map((p) => p.part['errorText'])).toEqual([INTERRUPTED_TEXT]);
    expect(answer.done).toBe(true);
  }, 60_000);
});
