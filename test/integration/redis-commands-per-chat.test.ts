/**
 * What a chat costs Redis with REDIS_URL, seen by Redis itself (MONITOR): the commands each
 * instance sends (a script counts once, the commands it runs inside are not round trips; a
 * MULTI ... EXEC block is sent as one write). Guards against a change that quietly adds a round
 * trip to every chat: a chat whose session is free makes one before its reply (the start script:
 * rate limits, turn enter, session read) and one as the reply goes out (the end script: the turn
 * stored, the queue left).
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_BEGIN } from '../../src/shared-state/chat-begin-script.ts';
import { CHAT_END } from '../../src/shared-state/chat-end-script.ts';
import { TURN_QUEUE_SCRIPTS } from '../../src/turns/redis-turn-queue.ts';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, untilRedisReady, type StubbedService } from '../helpers/stubbed-service.ts';

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const SCRIPTS = new Map([[sha1(CHAT_BEGIN), 'begin'], [sha1(CHAT_END), 'end'], ...Object.entries(TURN_QUEUE_SCRIPTS).map(([name, lua]) => [sha1(lua), name] as const)]);

let redis: TestRedis;
let raw: Redis;
let svc: StubbedService;
const chat = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  svc.app.inject({ method: 'POST', url: '/chat_adapter', payload, headers });

beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
  // The concurrency ceilings' own commands (two lease scripts sent together, two ZREM after) are
  // counted by test/fairness/concurrency-redis-cost.test.ts; here the turn's scripts alone.
  svc = await startStubbedService({ REDIS_URL: redis.url, RATE_LIMIT_SESSION_PER_MIN: '30', RATE_LIMIT_ORG_PER_MIN: '1000', CONCURRENCY_PER_CLIENT: '0', CONCURRENCY_PER_ORG: '0' });
  await untilRedisReady(svc);
  // Redis learns the scripts on first use (one EVAL each): not what a chat costs afterwards.
  expect((await chat(chatRequest())).statusCode).toBe(200);
  expect((await chat(chatRequest(), { 'idempotency-key': 'warm-up' })).statusCode).toBe(200);
  const busy = chatRequest();
  expect((await Promise.all([chat(busy), chat(busy)])).map((r) => r.statusCode)).toEqual([200, 200]);
}, 20_000);
afterAll(async () => {
  await svc?.close();
  raw?.disconnect();
  await redis?.stop();
});

/**
 * Each command a client sent while `run` ran (MONITOR), scripts by name (`begin`, `end`, `poll`),
 * scripts' own commands left out, and so are lease renewals (every 500 ms of a long turn, not per chat).
 */
async function sentDuring(run: (sent: readonly string[]) => Promise<void>): Promise<string[]> {
  const monitor = await raw.monitor();
  const sent: string[] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua') return;
    const name = String(args[0]).toLowerCase();
    const named = name === 'evalsha' ? (SCRIPTS.get(String(args[1])) ?? 'evalsha') : name;
    if (named !== 'renew') sent.push(named);
  });
  await sleep(50);
  await run(sent);
  await sleep(150); // the end script is sent as the reply goes out, not waited for
  monitor.disconnect();
  return sent;
}

/** Round trips: a MULTI ... EXEC block is one. */
const roundTrips = (sent: readonly string[]) => {
  let n = 0;
  let inBlock = false;
  for (const command of sent) {
    if (command === 'multi') inBlock = true;
    else if (command === 'exec') inBlock = false;
    if (!inBlock) n += 1;
  }
  return n;
};

/** The engine answers after 100 ms; `seen` gets what had been sent to Redis by the time it answers. */
function engineNoting(sent: () => readonly string[], seen: string[][]) {
  svc.stubs.engine.handle((_req, res) => {
    setTimeout(() => {
      seen.push([...sent()]);
      sendJson(res, 200, engineReply());
    }, 100);
  });
}

describe('Redis round trips per chat', () => {
  it('a chat whose session is free: one script before the reply (limits, turn, session), one after (turn stored, queue left), in a new session and the next chat of it', async () => {
    const session = chatRequest({ session_id: newSessionId() });
    for (const message of ['Is there a gym in the building?', 'Are pets allowed in the units?']) {
      const atEngine: string[][] = [];
      const sent = await sentDuring(async (soFar) => {
        engineNoting(() => soFar, atEngine);
        expect((await chat({ ...session, message })).statusCode).toBe(200);
      });
      expect(atEngine, 'before the reply').toEqual([['begin']]);
      expect(sent, 'in all').toEqual(['begin', 'end']);
    }
    // The second chat found the first turn in the session read by its start script.
    const history = (svc.stubs.engine.requests.at(-1)?.body as { history: { content: string }[] }).history;
    expect(history.map((m) => m.content)).toContain('Is there a gym in the building?');
  });

  it('a message that waits for its turn: its start, its polls (the one that finds it at the head reads the session), its end; never a separate session read', async () => {
    const session = chatRequest({ session_id: newSessionId() });
    const atEngine: string[][] = [];
    const sent = await sentDuring(async (soFar) => {
      engineNoting(() => soFar, atEngine);
      const first = chat({ ...session, message: 'Is there a gym in the building?' });
      await sleep(20);
      const second = chat({ ...session, message: 'Are pets allowed in the units?' });
      expect([(await first).statusCode, (await second).statusCode]).toEqual([200, 200]);
    });
    const polls = sent.filter((c) => c === 'poll').length;
    expect(polls, sent.join(' ')).toBeGreaterThan(0);
    expect([...sent].sort()).toEqual(['begin', 'begin', 'end', 'end', ...Array<string>(polls).fill('poll')].sort());
    expect(svc.stubs.engine.requests.at(-1)?.body).toMatchObject({ history: [{ content: 'Is there a gym in the building?' }, {}] });
  });

  it('a streamed chat the same: its start before the stream, its end once the turn is complete, and the next chat sees its turn', async () => {
    const session = chatRequest({ session_id: newSessionId() });
    const atEngine: string[][] = [];
    const sent = await sentDuring(async (soFar) => {
      engineNoting(() => soFar, atEngine);
      const res = await chat({ ...session, message: 'Is there a gym in the building?' }, { accept: 'text/event-stream' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/event-stream');
    });
    expect(atEngine).toEqual([['begin']]);
    expect(sent).toEqual(['begin', 'end']);
    expect((await chat({ ...session, message: 'Are pets allowed in the units?' })).statusCode).toBe(200);
    expect(svc.stubs.engine.requests.at(-1)?.body).toMatchObject({ history: [{ content: 'Is there a gym in the building?' }, {}] });
  });

  it('a chat with an Idempotency-Key: the claim made by the start script, and keeping the answer on top; a replay costs the start script only', async () => {
    const keyed = chatRequest();
    const headers = { 'idempotency-key': `key-${newSessionId()}` };
    const sent = await sentDuring(async () => {
      expect((await chat(keyed, headers)).statusCode).toBe(200);
    });
    expect(sent).toEqual(['begin', 'end', 'evalsha']);
    const replayed = await sentDuring(async () => {
      expect((await chat(keyed, headers)).headers['idempotent-replayed']).toBe('true');
    });
    expect(replayed).toEqual(['begin']);
    expect(roundTrips([...sent, ...replayed])).toBe(4);
  });
});
