/**
 * What a chat costs Redis with REDIS_URL, seen by Redis itself (MONITOR): the commands each
 * instance sends (a script counts once, the commands it runs inside are not round trips; a
 * MULTI ... EXEC block is sent as one write). Guards against a change that quietly adds a round
 * trip to every chat: a chat whose session is free makes one round trip before its reply (the
 * session's start script: its rate window, turn enter, session read; sent with it, the single-slot
 * count of each window shared by many sessions, here the organisation's) and one as the reply goes
 * out (the end script: the turn stored, the queue left). With an Idempotency-Key the claim goes out
 * with the start, and keeping the answer is one more call.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_SCRIPTS } from '../../src/idempotency/redis-idempotency-store.ts';
import { TURN_SCRIPTS } from '../../src/turns/redis-turn-queue.ts';
import { COUNT_WINDOW } from '../../src/turns/shared-windows.ts';
import { STREAM_WRITE } from '../../src/streams/redis-stream-log.ts';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { metricValue } from '../helpers/metric-value.ts';
import { startStubbedService, untilRedisReady, type StubbedService } from '../helpers/stubbed-service.ts';

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const SCRIPTS = new Map<string, string>(
  [...Object.entries(TURN_SCRIPTS), ...Object.entries(IDEMPOTENCY_SCRIPTS), ['window', COUNT_WINDOW] as const, ['stream-log write', STREAM_WRITE] as const].map(
    ([name, lua]) => [sha1(lua), name] as const,
  ),
);

let redis: TestRedis;
let raw: Redis;
let svc: StubbedService;
const chat = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  svc.app.inject({ method: 'POST', url: '/chat_adapter', payload, headers });

beforeAll(async () => {
  redis = await startTestRedis();
  raw = new Redis(redis.url);
  // The concurrency ceilings' own calls (one script before the admission, one giving the leases back) are
  // counted by test/fairness/concurrency-redis-cost.test.ts; here the turn's scripts alone.
  svc = await startStubbedService({ REDIS_URL: redis.url, RATE_LIMIT_SESSION_PER_MIN: '30', RATE_LIMIT_ORG_PER_MIN: '1000', CONCURRENCY_PER_CLIENT: '0', CONCURRENCY_PER_ORG: '0' });
  await untilRedisReady(svc);
  // Redis learns the scripts on first use (one EVAL each): not what a chat costs afterwards.
  expect((await chat(chatRequest())).statusCode).toBe(200);
  expect((await chat(chatRequest(), { accept: 'text/event-stream' })).statusCode).toBe(200);
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

const sorted = (sent: readonly string[]) => [...sent].sort();

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
      expect(atEngine.map(sorted), 'before the reply').toEqual([['begin', 'window']]);
      expect(sorted(sent), 'in all').toEqual(['begin', 'end', 'window']);
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
    expect(sorted(sent)).toEqual(sorted(['begin', 'begin', 'end', 'end', 'window', 'window', ...Array<string>(polls).fill('poll')]));
    expect(svc.stubs.engine.requests.at(-1)?.body).toMatchObject({ history: [{ content: 'Is there a gym in the building?' }, {}] });
  });

  it('a streamed chat the same, plus its stream log in one script call per batch: its start before the stream, its end once the turn is complete, and the next chat sees its turn', async () => {
    const session = chatRequest({ session_id: newSessionId() });
    const atEngine: string[][] = [];
    const sent = await sentDuring(async (soFar) => {
      engineNoting(() => soFar, atEngine);
      const res = await chat({ ...session, message: 'Is there a gym in the building?' }, { accept: 'text/event-stream' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/event-stream');
    });
    // The chat's own: the same calls. Its stream log (kept for resumers, docs/api.md#resuming-a-streamed-reply):
    // one script call with the start, then one per 50 ms in which parts were written, the last with the end.
    const own = (commands: readonly string[]) => commands.filter((c) => c !== 'stream-log write');
    expect(atEngine.map((c) => sorted(own(c)))).toEqual([['begin', 'window']]);
    expect(sorted(own(sent))).toEqual(['begin', 'end', 'window']);
    const writes = sent.length - own(sent).length;
    expect(writes).toBeGreaterThanOrEqual(2);
    expect(writes).toBeLessThanOrEqual(3);
    expect((await chat({ ...session, message: 'Are pets allowed in the units?' })).statusCode).toBe(200);
    expect(svc.stubs.engine.requests.at(-1)?.body).toMatchObject({ history: [{ content: 'Is there a gym in the building?' }, {}] });
  });

  it('a chat with an Idempotency-Key: the claim sent with the start, keeping the answer before it goes out; a replay is answered after the start round trip and gives back what it counted', async () => {
    const keyed = chatRequest();
    const headers = { 'idempotency-key': `key-${newSessionId()}` };
    const atEngine: string[][] = [];
    const sent = await sentDuring(async (soFar) => {
      engineNoting(() => soFar, atEngine);
      expect((await chat(keyed, headers)).statusCode).toBe(200);
    });
    expect(atEngine.map(sorted), 'before the reply').toEqual([['begin', 'claim', 'window']]);
    expect(sorted(sent)).toEqual(['begin', 'claim', 'complete', 'end', 'window']);
    expect(sent.indexOf('complete')).toBeLessThan(sent.indexOf('end'));
    const replayed = await sentDuring(async () => {
      expect((await chat(keyed, headers)).headers['idempotent-replayed']).toBe('true');
    });
    // The start's three calls, then, behind the answer, the entry leaves and the counts are given back.
    expect(sorted(replayed)).toEqual(['begin', 'claim', 'end', 'window', 'window']);
  });

  it('every call is timed by script in chat_adapter_redis_command_duration_seconds, so a slow Redis shows as Redis', async () => {
    const before = await svc.metrics.scrape();
    expect((await chat(chatRequest({ session_id: newSessionId() }))).statusCode).toBe(200);
    await sleep(100); // the end script is sent as the reply goes out
    const after = await svc.metrics.scrape();
    for (const command of ['chatBegin', 'chatEnd', 'countWindow']) {
      const series = `chat_adapter_redis_command_duration_seconds_count{command="${command}",outcome="ok"}`;
      expect(metricValue(after, series) - metricValue(before, series), command).toBe(1);
    }
  });
});
