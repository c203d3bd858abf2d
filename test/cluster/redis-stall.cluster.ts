/**
 * Issue 24, with real processes: three instances on one Redis while sessions chat, and Redis
 * stalls (CLIENT PAUSE, as a slow fsync, a failover or a long command does) or is lost (killed
 * and back empty). The next chat of every session must be served within 1 s of Redis answering
 * again, every chat answered 200, and each session's stored conversation in order (Q1 A1 Q2 A2).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionId } from '../helpers/fixtures.ts';
import { startWarmCluster, type ChatAnswer, type Cluster } from './cluster.ts';
import { percentile, record } from './figures.ts';
import { answerTo } from './stub-parties.ts';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startWarmCluster(SESSIONS);
}, 120_000);
afterAll(async () => cluster?.close(), 60_000);

const SESSIONS = 20;
/** A session's messages are this far apart (its rate limit, 8 a minute, is not what is tested here). */
const PACE_MS = 500;

interface Timed {
  readonly answer: ChatAnswer;
  /** performance.now() when sent and when answered. */
  readonly sentAt: number;
  readonly answeredAt: number;
}

interface Session {
  readonly id: string;
  readonly messages: string[];
  readonly answers: ChatAnswer[];
  readonly timed: Timed[];
}

/** The chats that were in flight at some time between `from` and `to`. */
const inFlightBetween = (sessions: readonly Session[], from: number, to: number) =>
  sessions.flatMap((s) => s.timed).filter((t) => t.sentAt < to && t.answeredAt > from).map((t) => t.answer);

/** Sessions chatting, one message after another through the proxy, until `stop()`; then `next()` sends each one more. */
function chattingSessions(label: string) {
  const sessions: Session[] = Array.from({ length: SESSIONS }, () => ({ id: newSessionId(), messages: [], answers: [], timed: [] }));
  let chatting = true;
  const send = async (s: Session) => {
    const message = `${label}, session ${s.id.slice(0, 8)}, question ${s.messages.length + 1}: is the gym open late?`;
    s.messages.push(message);
    const sentAt = performance.now();
    const answer = await cluster.chat({ session_id: s.id, message });
    s.answers.push(answer);
    s.timed.push({ answer, sentAt, answeredAt: performance.now() });
    return answer;
  };
  const loops = sessions.map(async (s, i) => {
    await sleep((i * PACE_MS) / SESSIONS); // spread over the pace, not all at once
    while (chatting) {
      const started = performance.now();
      await send(s);
      await sleep(Math.max(0, PACE_MS - (performance.now() - started)));
    }
  });
  return {
    sessions,
    async stop() {
      chatting = false;
      await Promise.all(loops);
    },
    /** Each session's next chat, at the same pace as before (spread over PACE_MS, not all at once). */
    next: () => Promise.all(sessions.map(async (s, i) => (await sleep((i * PACE_MS) / SESSIONS), send(s)))),
  };
}

/** The longest wait for the session's turn among `answers` (latency.steps.waitForTurn), ms. */
const longestWait = (answers: readonly ChatAnswer[]) =>
  Math.round(Math.max(...answers.map((a) => (a.body['latency'] as { steps: Record<string, number> } | undefined)?.steps['waitForTurn'] ?? 0)));

/** What a slow chat spent its time on, for a failure's message. */
const slowChat = (a: ChatAnswer) => `${Math.round(a.ms)} ms by #${a.servedBy}: ${JSON.stringify((a.body['latency'] as { steps?: unknown } | undefined)?.steps)}`;

const inOrder = (s: Session) => JSON.stringify(cluster.parties.store.conversation(s.id)) === JSON.stringify(s.messages.flatMap((m) => [`USER: ${m}`, `ASSISTANT: ${answerTo(m)}`]));

describe('three instances, Redis stalls or is lost while sessions chat', () => {
  for (const pauseMs of [300, 1_500]) it(`Redis paused ${pauseMs} ms (CLIENT PAUSE ALL): every session's next chat within 1 s, all 200, conversations in order`, async ({ task }) => {
    const admin = new Redis(cluster.redis.url);
    try {
      const load = chattingSessions(`Pause ${pauseMs}`);
      await sleep(1_500);
      await admin.call('CLIENT', 'PAUSE', String(pauseMs), 'ALL');
      const pausedAt = performance.now();
      await sleep(pauseMs);
      await load.stop();
      const during = inFlightBetween(load.sessions, pausedAt, pausedAt + pauseMs);
      const afterMs = performance.now() - pausedAt - pauseMs;
      const next = await load.next();
      const all = load.sessions.flatMap((s) => s.answers);

      expect(all.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text}`)).toEqual([]);
      expect(next.filter((a) => a.ms >= 1_000).map(slowChat)).toEqual([]);
      expect(load.sessions.filter((s) => !inOrder(s)).map((s) => s.id)).toEqual([]);
      record(task, `Redis paused ${pauseMs} ms`, {
        'sessions chatting (one message every 500 ms each)': SESSIONS,
        'chats in all, all 200': all.length,
        'chats in flight during the pause: p50 / max': `${during.length} chats, ${percentile(during.map((a) => a.ms), 50)} / ${percentile(during.map((a) => a.ms), 100)} ms`,
        'next chat of every session after the pause: p50 / max': `${percentile(next.map((a) => a.ms), 50)} / ${percentile(next.map((a) => a.ms), 100)} ms (sent over 500 ms from ${Math.round(afterMs)} ms after the pause ended; longest waitForTurn ${longestWait(next)} ms)`,
        'conversations stored in order': `${load.sessions.filter(inOrder).length} / ${SESSIONS}`,
      });
    } finally {
      admin.disconnect();
    }
  }, 60_000);

  it('Redis killed and back empty: chats go on during the outage, every session\'s next chat within 1 s once it is back, conversations in order', async ({ task }) => {
    const admin = new Redis(cluster.redis.url);
    const load = chattingSessions('Loss');
    await sleep(1_000);
    // The AOF records the flush, so Redis comes back with nothing: no cache, no turn queues, no counters.
    await admin.flushall();
    admin.disconnect();
    await cluster.redis.stop();
    const downAt = performance.now();
    await sleep(2_000);
    await cluster.redis.start();
    const outageMs = performance.now() - downAt;
    await cluster.allReady();
    await sleep(1_500); // ioredis reconnects at most 1 s apart
    await load.stop();
    const next = await load.next();
    const all = load.sessions.flatMap((s) => s.answers);
    const during = inFlightBetween(load.sessions, downAt, downAt + outageMs);

    expect(all.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text}`)).toEqual([]);
    expect(next.filter((a) => a.ms >= 1_000).map(slowChat)).toEqual([]);
    expect(load.sessions.filter((s) => !inOrder(s)).map((s) => s.id)).toEqual([]);
    record(task, 'Redis lost (SIGKILL, back empty)', {
      'sessions chatting (one message every 500 ms each)': SESSIONS,
      'Redis down for': `${Math.round(outageMs)} ms`,
      'chats in all, all 200': all.length,
      'chats in flight while Redis was down: p50 / max': `${during.length} chats, ${percentile(during.map((a) => a.ms), 50)} / ${percentile(during.map((a) => a.ms), 100)} ms`,
      'next chat of every session once Redis is back: p50 / max': `${percentile(next.map((a) => a.ms), 50)} / ${percentile(next.map((a) => a.ms), 100)} ms (sent over 500 ms; longest waitForTurn ${longestWait(next)} ms)`,
      'conversations stored in order': `${load.sessions.filter(inOrder).length} / ${SESSIONS}`,
    });
  }, 90_000);
});
