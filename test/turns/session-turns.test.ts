import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';
import { firstSlowest, inArrivalOrder, QUESTIONS, storedConversation } from '../helpers/turn-order.ts';

// 40 chats at once from one client: more than its default concurrency ceiling (docs/api.md#fair-shares), turned off here.
const harness = useStubbedService({ ENGINE_TIMEOUT_MS: '5000', CONCURRENCY_PER_CLIENT: '0' });
afterEach(() => {
  harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
});


describe('one turn at a time per session', () => {
  it('stores Q1 A1 Q2 A2 ... in arrival order although the first engine answer comes last', async () => {
    harness.svc.stubs.engine.handle(firstSlowest);
    const session_id = newSessionId();
    const replies = await Promise.all(
      QUESTIONS.map(async (message, i) => {
        await sleep(i * 20);
        return harness.chat(chatRequest({ session_id, message }));
      }),
    );
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(storedConversation(harness.svc, session_id)).toEqual(inArrivalOrder);
    // The last one waited for the three before it, and says so in its latency figures.
    const last = replies.at(-1)?.json();
    expect(Object.keys(last.latency.steps)[0]).toBe('waitForTurn');
    expect(last.latency.steps.waitForTurn).toBeGreaterThan(150);
    expect(replies.at(-1)?.headers['server-timing']).toMatch(/^waitForTurn;dur=\d+(\.\d{1,3})?, receiveRequest/);
  });

  it('never makes one session wait for another', async () => {
    harness.svc.stubs.engine.handle((req, res) => {
      const slow = (req.body as { message: string }).message.includes('slow');
      setTimeout(() => sendJson(res, 200, engineReply()), slow ? 800 : 0);
    });
    const slow = harness.chat(chatRequest({ message: 'a slow question about the gym' }));
    await sleep(50);
    const started = performance.now();
    const other = await harness.chat(chatRequest({ message: 'a quick question about the pool' }));
    expect(other.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(700);
    expect(other.json().latency.steps.waitForTurn).toBeLessThan(100);
    expect((await slow).statusCode).toBe(200);
  });

  it('checks the Idempotency-Key before a message waits its turn: a bad key is a 400 while the session is still busy', async () => {
    harness.svc.stubs.engine.handle((_req, res) => void setTimeout(() => sendJson(res, 200, engineReply()), 1500));
    const session_id = newSessionId();
    let firstAnswered = false;
    const first = harness.chat(chatRequest({ session_id })).then((res) => {
      firstAnswered = true;
      return res;
    });
    await sleep(100);
    const engineCalls = harness.svc.stubs.engine.requests.length;
    const refused = await harness.chat(chatRequest({ session_id }), { 'idempotency-key': '"not closed' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail.message).toContain("'Idempotency-Key'");
    // Refused while the turn ahead of it still ran: it never waited for it, and called nothing.
    expect(firstAnswered).toBe(false);
    expect(refused.headers['server-timing'] ?? '').not.toMatch(/waitForTurn/);
    expect(harness.svc.stubs.engine.requests.length).toBe(engineCalls);
    expect((await first).statusCode).toBe(200);
  });

  it('leaves no per-session state once the sessions are idle, and reports the time waited', async () => {
    const before = await harness.svc.metrics.scrape();
    const count = (text: string) => Number(/chat_adapter_session_turn_wait_seconds_count\{outcome="turn"\} (\d+)/.exec(text)?.[1] ?? 0);
    const sessions = Array.from({ length: 20 }, () => newSessionId());
    await Promise.all(sessions.flatMap((session_id) => [1, 2].map(() => harness.chat(chatRequest({ session_id })))));
    expect(harness.svc.guards.turns.activeSessions).toBe(0);
    expect(count(await harness.svc.metrics.scrape())).toBe(count(before) + 40);
  });
});
