/**
 * An unlucky day for the shared state, with real processes: three instances on one Redis, and Redis
 * stalls two to four times, for random lengths (50 ms to 1.2 s, `CLIENT PAUSE` of every command or
 * of writes only), while sessions send messages that overlap (the next one arrives while the one
 * before it is still being answered, so it waits its turn on Redis while Redis stalls).
 *
 * What must hold whatever the schedule: every chat answered 200; every question and answer stored,
 * each once, the question before its answer; a session's turns in order whenever Redis answered
 * while they ran (during a stall the order across instances is in-process only, docs/api.md);
 * and once the stalls end, every session's next chat served within 1 s and stored after the rest.
 * The schedule comes from a seed (FAULT_SEED, or the one printed with the figures) to replay it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSessionId } from '../helpers/fixtures.ts';
import { startWarmCluster, type ChatAnswer, type Cluster } from './cluster.ts';
import { percentile, record } from './figures.ts';
import { answerTo } from './stub-parties.ts';

const SESSIONS = 16;
/** Messages per session before the stalls end; with the one after them, within the session rate limit (8 a minute). */
const MESSAGES = 6;
const TOPICS = ['covered parking', 'painting the walls', 'package pick-up', 'the pool in winter', 'maintenance requests', 'washers and dryers', 'guest parking'];

/** mulberry32: a small seeded generator, so a failing schedule can be run again. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Sent {
  readonly message: string;
  readonly sentAt: number;
  answer?: ChatAnswer;
  answeredAt?: number;
}

interface Stall {
  readonly mode: 'ALL' | 'WRITE';
  readonly ms: number;
  readonly at: number;
}

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startWarmCluster(SESSIONS);
}, 120_000);
afterAll(async () => cluster?.close(), 60_000);

describe('three instances while Redis stalls several times, sessions sending overlapping messages', () => {
  const seed = Number(process.env['FAULT_SEED'] ?? Date.now() % 1_000_000);

  it(`every chat 200, every turn stored once, order kept while Redis answered, every session served within 1 s after (seed ${seed})`, async ({ task }) => {
    const random = seeded(seed);
    const between = (low: number, high: number) => Math.round(low + random() * (high - low));
    const admin = new Redis(cluster.redis.url);
    const sessions = Array.from({ length: SESSIONS }, (_, i) => ({ id: newSessionId(), index: i, sent: [] as Sent[] }));
    type Session = (typeof sessions)[number];

    const send = (s: Session, label: string, engineMs: number): Sent => {
      const message = `Session ${s.index + 1}, ${label}: what about ${TOPICS[s.sent.length % TOPICS.length]}?`;
      cluster.parties.engine.delays.set(message, engineMs);
      const sent: Sent = { message, sentAt: performance.now() };
      s.sent.push(sent);
      const settle = (answer: ChatAnswer) => Object.assign(sent, { answer, answeredAt: performance.now() });
      // A chat that gets no HTTP answer at all is a failure to report, not a wait until the test times out.
      cluster.chat({ session_id: s.id, message }).then(settle, (err: unknown) =>
        settle({ status: 0, servedBy: -1, headers: new Headers(), text: String(err), body: {}, ms: performance.now() - sent.sentAt }),
      );
      return sent;
    };
    const answered = async (sent: Sent) => {
      while (sent.answer === undefined) await sleep(10);
      return sent.answer;
    };

    // The whole schedule is drawn first, so that a seed draws the same one again. Each session: a
    // message, then the next as soon as the engine has it (or it is answered), half the time at once
    // (it must wait for the turn of the one before), else after a pause to think.
    const plans = sessions.map(() => ({
      startMs: between(0, 400),
      messages: Array.from({ length: MESSAGES }, () => ({ engineMs: between(50, 400), thinkMs: random() < 0.5 ? 0 : between(100, 800) })),
    }));
    // Redis stalls two to four times, with calm spells between, long enough for turns to run on
    // Redis (and be checked for order).
    const schedule = Array.from({ length: between(2, 4) }, () => ({ mode: random() < 0.7 ? ('ALL' as const) : ('WRITE' as const), ms: between(50, 1_200), calmAfterMs: between(400, 1_000) }));

    let stormOver = false;
    const talking = sessions.map(async (s, i) => {
      await sleep(plans[i]!.startMs);
      for (const [k, plan] of plans[i]!.messages.entries()) {
        if (stormOver) break;
        const sent = send(s, `question ${k + 1}`, plan.engineMs);
        await Promise.race([cluster.parties.engine.asked(sent.message), answered(sent)]);
        await sleep(plan.thinkMs);
      }
      await Promise.all(s.sent.map(answered));
    });

    // Meanwhile the stalls; the sessions send nothing new once the last one ends.
    const stalls: Stall[] = [];
    const storm = (async () => {
      await sleep(1_500); // a calm start: every session's first turns run on Redis
      for (const [n, { mode, ms, calmAfterMs }] of schedule.entries()) {
        stalls.push({ mode, ms, at: performance.now() });
        await admin.call('CLIENT', 'PAUSE', String(ms), mode);
        await sleep(ms);
        if (n < schedule.length - 1) await sleep(calmAfterMs);
      }
      stormOver = true;
      return performance.now();
    })();
    const calmAt = await storm;
    await Promise.all(talking);

    // Once the chats in flight are answered: each session's next message, spread over 500 ms. An
    // entry a stalled script left in a queue (its lease is 2 s) would hold it up.
    const nextAfterMs = Math.round(performance.now() - calmAt);
    const next = await Promise.all(sessions.map(async (s, i) => (await sleep((i * 500) / SESSIONS), answered(send(s, 'after the stalls', 0)))));
    admin.disconnect();

    const all = sessions.flatMap((s) => s.sent.map((m) => ({ ...m, answer: m.answer! })));
    const stalled = (m: Sent) => stalls.some((st) => m.sentAt < st.at + st.ms + 200 && m.answeredAt! > st.at);
    const lines = (m: Sent) => [`USER: ${m.message}`, `ASSISTANT: ${answerTo(m.message)}`];
    const context = `seed ${seed}, stalls ${JSON.stringify(stalls.map(({ mode, ms }) => `${mode} ${ms} ms`))}`;

    expect(all.filter((m) => m.answer.status !== 200).map((m) => `${m.answer.status} ${m.answer.text} (${context})`)).toEqual([]);
    for (const s of sessions) {
      const stored = cluster.parties.store.conversation(s.id);
      // Every question and answer once, the question before its answer.
      expect([...stored].sort(), context).toEqual(s.sent.flatMap(lines).sort());
      for (const m of s.sent) expect(stored.indexOf(lines(m)[0]!), `${m.message} (${context})`).toBeLessThan(stored.indexOf(lines(m)[1]!));
      // Turns that ran while Redis answered keep their order and do not interleave.
      const calm = s.sent.filter((m) => !stalled(m));
      const calmStored = stored.filter((line) => calm.some((m) => lines(m).includes(line)));
      expect(calmStored, `session ${s.index + 1} (${context})`).toEqual(calm.flatMap(lines));
      // The message after the stalls is the session's last turn.
      expect(stored.slice(-2), `session ${s.index + 1} (${context})`).toEqual(lines(s.sent.at(-1)!));
    }
    expect(next.filter((a) => a.ms >= 1_000).map((a) => `${Math.round(a.ms)} ms by #${a.servedBy} (${context})`)).toEqual([]);

    record(task, 'Redis stalling several times', {
      seed,
      'sessions, each sending overlapping messages': `${SESSIONS}, ${MESSAGES} messages each`,
      'stalls (CLIENT PAUSE)': `${stalls.length}: ${stalls.map(({ mode, ms }) => `${mode} ${ms} ms`).join(', ')}`,
      'chats in all, all 200': all.length,
      'chats that overlapped a stall': all.filter(stalled).length,
      'chats that overlapped a stall: p50 / max': `${percentile(all.filter(stalled).map((m) => m.answer.ms), 50)} / ${percentile(all.filter(stalled).map((m) => m.answer.ms), 100)} ms`,
      'next chat of every session after the stalls: p50 / max': `${percentile(next.map((a) => a.ms), 50)} / ${percentile(next.map((a) => a.ms), 100)} ms (sent over 500 ms from ${nextAfterMs} ms after the last stall ended)`,
    });
  }, 120_000);
});
