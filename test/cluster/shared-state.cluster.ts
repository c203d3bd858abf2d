/**
 * Issue 13, with real processes: what three instances behind a round-robin proxy share through one
 * Redis (session cache, idempotency, session turns, rate limits), and a load of 300 chats.
 * Every scenario records its figures; `npm run test:cluster` prints them.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, newSessionId } from '../helpers/fixtures.ts';
import { INSTANCES, SESSION_LIMIT_PER_MIN, startCluster, until, type ChatAnswer, type Cluster } from './cluster.ts';
import { expectedLines, runConversations } from './conversations.ts';
import { percentile, record, spread } from './figures.ts';
import { answerTo } from './stub-parties.ts';
import { turnQueueKeyOf } from '../helpers/turn-calls.ts';
import type { SessionOf } from '../../src/pipeline/session-key.ts';

let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => cluster?.close(), 60_000);

const steps = (a: ChatAnswer) => (a.body['latency'] as { steps: Record<string, number> }).steps;
const slots = (answers: readonly ChatAnswer[]) => answers.map((a) => a.servedBy);

describe('three instances, one Redis', () => {
  it('reuses a session’s cached reply whichever instance answers: the engine is asked once', async ({ task }) => {
    const session_id = newSessionId();
    const message = 'What are the opening hours of the leasing office?';
    const answers: ChatAnswer[] = [];
    for (let i = 0; i < 2 * INSTANCES; i += 1) answers.push(await cluster.chat({ session_id, message }));

    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(slots(answers)).size).toBe(INSTANCES);
    expect(cluster.parties.engine.calls(message)).toBe(1);
    expect(answers.every((a) => a.body['response'] === answerTo(message))).toBe(true);
    expect(answers.slice(1).every((a) => 'askEngineCacheHit' in steps(a))).toBe(true);
    record(task, 'cached reply', {
      'chats of one repeated question, one session': answers.length,
      'answered by instance': spread(slots(answers)),
      'engine calls': cluster.parties.engine.calls(message),
    });
  });

  it('replays an Idempotency-Key on another instance, and answers 409 while the first instance still works on it', async ({ task }) => {
    const session_id = newSessionId();
    const message = 'Can I reserve the clubhouse for a birthday party?';
    const key = randomUUID();
    const same = { session_id, message };
    cluster.parties.engine.delays.set(message, 3_000);
    const first = cluster.chat(same, { 'idempotency-key': key });
    await cluster.parties.engine.asked(message);
    const duplicate = await cluster.chat(same, { 'idempotency-key': key });
    const answered = await first;
    const replay = await cluster.chat(same, { 'idempotency-key': key });

    expect(duplicate.status).toBe(409);
    expect(duplicate.headers.get('retry-after')).toBe('1');
    expect(answered.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(answered.text);
    expect(new Set([answered.servedBy, duplicate.servedBy, replay.servedBy]).size).toBe(3);
    expect(cluster.parties.engine.calls(message)).toBe(1);
    expect(cluster.parties.store.conversation(session_id)).toEqual([`USER: ${message}`, `ASSISTANT: ${answerTo(message)}`]);
    record(task, 'idempotency', {
      'first attempt (engine 3 s) on': `#${answered.servedBy}: 200`,
      'same key meanwhile on': `#${duplicate.servedBy}: ${duplicate.status} in ${Math.round(duplicate.ms)} ms`,
      'same key afterwards on': `#${replay.servedBy}: ${replay.status}, replayed byte for byte`,
      'engine calls / messages stored': `${cluster.parties.engine.calls(message)} / ${cluster.parties.store.conversation(session_id).length}`,
    });
  });

  it('keeps a session’s order when its consecutive messages land on different instances (the first answered slowest)', async ({ task }) => {
    const session_id = newSessionId();
    const questions = ['Is there covered parking for residents?', 'Can I paint the walls of my apartment?', 'Where do I pick up my packages?', 'Is the swimming pool heated in winter?'];
    questions.forEach((q, i) => cluster.parties.engine.delays.set(q, (questions.length - i) * 500));
    // The session's ticket counter in Redis (src/turns/redis-turn-queue.ts): each message is sent
    // once the previous one holds its ticket, so the send order is the arrival order.
    const redis = new Redis(cluster.redis.url);
    const { orgId, propertyId } = chatRequest();
    const tickets = async () => Number(await redis.get(turnQueueKeyOf({ orgId, propertyId, session_id, conversation_id: '' } as SessionOf, 'tickets')));
    const sent: Promise<ChatAnswer>[] = [];
    const done = new Set<number>();
    try {
      for (const [i, message] of questions.entries()) {
        if (i > 0) await until(async () => (done.has(i - 1) || (await tickets()) >= i ? true : undefined), 20_000, `message ${i} to take its ticket`);
        sent.push(cluster.chat({ session_id, message }).finally(() => done.add(i)));
      }
      const answers = await Promise.all(sent);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(new Set(slots(answers)).size).toBe(INSTANCES);
      expect(cluster.parties.store.conversation(session_id)).toEqual(questions.flatMap((q) => [`USER: ${q}`, `ASSISTANT: ${answerTo(q)}`]));
      record(task, 'session order', {
        'sent one after another, not waiting for answers; engine': '2.0, 1.5, 1.0, 0.5 s',
        'answered by instance, in send order': slots(answers).map((s) => `#${s}`).join(', '),
        'time each waited for its turn (ms)': answers.map((a) => Math.round(steps(a)['waitForTurn'] ?? 0)).join(', '),
        'stored conversation': 'Q1 A1 Q2 A2 Q3 A3 Q4 A4 (in send order)',
      });
    } finally {
      redis.disconnect();
    }
  });

  it('counts a session’s rate limit across instances: the chat after the limit is 429 wherever it lands', async ({ task }) => {
    const session_id = newSessionId();
    const answers: ChatAnswer[] = [];
    for (let i = 0; i < SESSION_LIMIT_PER_MIN; i += 1) answers.push(await cluster.chat({ session_id, message: `Rate limit question number ${i + 1} about the gym` }));
    const over = await cluster.chat({ session_id, message: 'One question more than the limit allows' });

    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(new Set(slots(answers)).size).toBe(INSTANCES);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: 'Too Many Requests' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    record(task, 'rate limit', {
      'RATE_LIMIT_SESSION_PER_MIN': SESSION_LIMIT_PER_MIN,
      'chats answered 200, by instance': spread(slots(answers)),
      [`chat ${SESSION_LIMIT_PER_MIN + 1}`]: `#${over.servedBy}: ${over.status}, Retry-After ${over.headers.get('retry-after')} s`,
    });
  });

  it('stores 300 chats over 60 sessions, sent at once from 15 sessions at a time: 600 messages, each conversation in order', async ({ task }) => {
    const { engine, store } = cluster.parties;
    engine.defaultDelayMs = () => 20 + Math.random() * 60;
    const storedBefore = store.stored.length;
    const cpuBefore = cluster.instances.map((i) => i.cpuMs());
    const run = await runConversations(cluster, 60, 5, 15).finally(() => (engine.defaultDelayMs = () => 0));
    const cpuAfter = cluster.instances.map((i) => i.cpuMs());
    const stored = store.stored.slice(storedBefore);
    // Then warm: one chat at a time, each in a new session (no turn to wait for).
    const warm: ChatAnswer[] = [];
    for (let n = 0; n < 150; n += 1) warm.push(await cluster.chat({ message: `Warm question ${n + 1}: is the rooftop terrace open late?` }));
    const cpuWarm = cluster.instances.map((i) => i.cpuMs());

    const answers = run.conversations.flatMap((c) => c.answers);
    const inOrder = run.conversations.filter((c) => JSON.stringify(store.conversation(c.sessionId)) === JSON.stringify(expectedLines(c)));
    const waited = answers.filter((a) => (steps(a)['waitForTurn'] ?? 0) >= 1);
    expect(answers.filter((a) => a.status !== 200).map((a) => a.text)).toEqual([]);
    expect(stored).toHaveLength(600);
    // A key reused for another message would be a conflict (and a message missing from the 600).
    expect(store.conflicts).toEqual([]);
    expect(inOrder).toHaveLength(60);
    expect(new Set(slots(answers)).size).toBe(INSTANCES);

    expect(warm.filter((a) => a.status !== 200)).toEqual([]);
    const cpuPerChat = (from: Array<number | undefined>, to: Array<number | undefined>, chats: number) =>
      from.includes(undefined) || to.includes(undefined) ? 'n/a (no /proc)' : `${(to.reduce((sum: number, v, i) => sum + v! - from[i]!, 0) / chats).toFixed(1)} ms`;
    const ms = answers.map((a) => a.ms);
    record(task, 'load', {
      'chats / sessions / sessions at once': '300 / 60 / 15',
      'wall time, throughput': `${(run.wallMs / 1000).toFixed(1)} s, ${(300 / (run.wallMs / 1000)).toFixed(1)} chats/s`,
      'latency through the proxy p50 / p95 / max': `${percentile(ms, 50)} / ${percentile(ms, 95)} / ${percentile(ms, 100)} ms (engine 20-80 ms)`,
      'answered by instance': spread(slots(answers)),
      'messages that waited for their session’s previous one': `${waited.length}, longest ${percentile(waited.map((a) => steps(a)['waitForTurn']!), 100)} ms`,
      'stored messages / keys reused for another message / keys resent': `${stored.length} / ${store.conflicts.length} / ${stored.filter((m) => (store.sends.get(m.key) ?? 0) > 1).length}`,
      'conversations stored in send order (Q/A alternating)': `${inOrder.length} / 60`,
      'service CPU per chat, this load (fresh processes)': cpuPerChat(cpuBefore, cpuAfter, 300),
      'service CPU per chat, 150 more one at a time (warm)': cpuPerChat(cpuAfter, cpuWarm, 150),
      'resident memory per instance afterwards': cluster.instances.map((i) => i.rssMiB()?.toFixed(0) ?? 'n/a').join(', ') + ' MiB',
    });
  }, 180_000);
});
