/**
 * The start and end scripts of a chat against a real redis-server: the end stores the turn once
 * however often it is repeated (a reply lost to a stall), and only while the entry holds the turn.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { SESSION_KEY_PREFIX, sessionKeys, sessionWriteOf } from '../../src/cache/redis-session-data.ts';
import type { SessionKey, Turn } from '../../src/cache/session-cache.ts';
import { sessionNameOfKey } from '../../src/cache/session-cache.ts';
import { createSessionTurns } from '../../src/turns/create-session-turns.ts';
import { createRedisTurnQueue, type Leave } from '../../src/turns/redis-turn-queue.ts';
import { engineReply } from '../helpers/fixtures.ts';
import { useRedisConnections } from '../helpers/redis-connections.ts';
import { enter, poll } from '../helpers/turn-calls.ts';

const redis = useRedisConnections();
const connect = () => redis.connect();

let n = 0;
const newSession = (): { name: string; key: SessionKey } => {
  n += 1;
  const key = { orgId: 'org', propertyId: 'prop', sessionId: `scripts-${n}` };
  return { name: sessionNameOfKey(key), key };
};
const turnOf = (question: string): Turn => ({ question, answer: `answer to ${question}`, reply: engineReply(), language: 'en' });
const recordOf = (question: string): Leave => ({ mode: 'store', record: { ttlMs: 60_000, write: sessionWriteOf(turnOf(question), Date.now()) } });
const storedMessages = async (key: SessionKey) =>
  (await redis.raw.lrange(sessionKeys(SESSION_KEY_PREFIX, key).messages, 0, -1)).map((m) => (JSON.parse(m) as { content: string }).content);

describe('the end of a turn in Redis', () => {
  it('stores the turn once, however often the end is repeated with the same token', async () => {
    const queue = createRedisTurnQueue(await connect());
    const { name, key } = newSession();
    expect((await queue.begin(name, 'a', 5000, undefined, false)).state).toBe('head');
    expect(await queue.leave(name, 'a', recordOf('Q1'))).toBe(true);
    expect(await queue.leave(name, 'a', recordOf('Q1'))).toBe(false);
    expect(await storedMessages(key)).toEqual(['Q1', 'answer to Q1']);
    expect(await redis.raw.llen(sessionKeys(SESSION_KEY_PREFIX, key).answers)).toBe(1);
  });

  it('stores a turn without an engine reply (a stopped one) in the history only, never as a reply to reuse', async () => {
    const queue = createRedisTurnQueue(await connect());
    const { name, key } = newSession();
    expect((await queue.begin(name, 'a', 5000, undefined, false)).state).toBe('head');
    expect(await queue.leave(name, 'a', recordOf('Q1'))).toBe(true);
    expect((await queue.begin(name, 'b', 5000, undefined, false)).state).toBe('head');
    const stopped: Turn = { question: 'Q2', answer: 'half an answer', language: 'en' };
    expect(await queue.leave(name, 'b', { mode: 'store', record: { ttlMs: 60_000, write: sessionWriteOf(stopped, Date.now()) } })).toBe(true);
    expect(await storedMessages(key)).toEqual(['Q1', 'answer to Q1', 'Q2', 'half an answer']);
    expect(await redis.raw.llen(sessionKeys(SESSION_KEY_PREFIX, key).answers)).toBe(1);
  });

  it('stores nothing for a turn whose lease expired and whose place the next message took', async () => {
    const queue = createRedisTurnQueue(await connect());
    const { name, key } = newSession();
    expect(await enter(queue, name, 'dead', 200)).toBe(true);
    expect(await enter(queue, name, 'next', 5000)).toBe(false);
    await sleep(300);
    expect(await poll(queue, name, 'next')).toBe('head');
    expect(await queue.leave(name, 'dead', recordOf('late'))).toBe(false);
    expect(await storedMessages(key)).toEqual([]);
    await queue.leave(name, 'next');
  });

  it('a turn ended during a Redis stall: the end times out and is sent again, the turn is stored once and the session is free', async () => {
    const fallbacks: string[] = [];
    const turns = createSessionTurns({ redis: await connect(), sessionTtlSeconds: 60, events: { fallback: (op) => fallbacks.push(op), leaseExpired: () => {} } });
    const { name, key } = newSession();
    const outcome = await turns.begin(name, performance.now() + 5_000, { session: key });
    const turn = outcome.kind === 'turn' ? outcome.turn : undefined;
    if (turn?.session?.kind !== 'shared') throw new Error('the turn should hold the shared queue with its session');
    expect(turn.session.read).toEqual({ entry: undefined }); // a new session, read by the start script
    turn.session.remember(turnOf('Q1'));
    await redis.raw.call('CLIENT', 'PAUSE', '600', 'ALL');
    turn.release();
    await sleep(1_500);
    expect(fallbacks).toContain('leave'); // the end's reply was lost at least once
    expect(await storedMessages(key)).toEqual(['Q1', 'answer to Q1']);
    // The next message reads the stored turn with its own start, at once.
    const next = await turns.begin(name, performance.now() + 1_000, { session: key });
    const nextTurn = next.kind === 'turn' ? next.turn : undefined;
    expect(nextTurn?.session?.kind === 'shared' ? nextTurn.session.read?.entry?.messages.map((m) => m.content) : undefined).toEqual(['Q1', 'answer to Q1']);
    nextTurn?.release();
  });

  it('a turn whose start a Redis stall timed out does not wait for Redis again (a stalled session), and the next message here starts only once its write behind has settled', async () => {
    const turns = createSessionTurns({ redis: await connect(), sessionTtlSeconds: 60 });
    const { name, key } = newSession();
    await redis.raw.call('CLIENT', 'PAUSE', '600', 'ALL');
    const started = performance.now();
    const outcome = await turns.begin(name, performance.now() + 5_000, { session: key });
    const turn = outcome.kind === 'turn' ? outcome.turn : undefined;
    expect(performance.now() - started).toBeLessThan(400); // the start's command timeout, once
    if (turn?.session?.kind !== 'stalled') throw new Error(`a stalled start should give a stalled session, not ${turn?.session?.kind}`);
    let settle = () => {};
    turn.session.holdTurnUntil(new Promise<void>((resolve) => (settle = resolve)));
    turn.release();
    await sleep(700); // the stall is over
    let nextStarted = false;
    const next = turns.begin(name, performance.now() + 5_000, { session: key }).then((o) => ((nextStarted = true), o));
    await sleep(300);
    expect(nextStarted).toBe(false); // held by the write behind the first turn
    settle();
    const nextTurn = await next;
    expect(nextTurn.kind === 'turn' && nextTurn.turn?.session?.kind).toBe('shared');
    if (nextTurn.kind === 'turn') nextTurn.turn?.release();
  });
});
