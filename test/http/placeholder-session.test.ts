import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

// docs/api.md#session-cache: `fake_service_session_id` names no real session; two visitors sent with it are two sessions.
const PLACEHOLDER = 'fake_service_session_id';
const harness = useStubbedService({ ENGINE_TIMEOUT_MS: '5000', RATE_LIMIT_SESSION_PER_MIN: '2' });
afterEach(() => {
  harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
});

const visitor = (conversation_id: string, message: string) => chatRequest({ session_id: PLACEHOLDER, conversation_id, message });
const engineCallFor = (message: string) => {
  const call = harness.svc.stubs.engine.requests.find((r) => (r.body as { message: string }).message === message);
  if (call === undefined) throw new Error(`the engine was not asked "${message}"`);
  return call.body as { history: { role: string; content: string }[] };
};

describe('the placeholder session id is scoped by conversation', () => {
  it("never sends visitor A's name and phone to the engine as visitor B's history", async () => {
    const intro = "Hi, I'm Maria Lopez, call me at 305-482-7719";
    expect((await harness.chat(visitor('2222222222222222222', intro))).statusCode).toBe(200);
    // A's own next message does see A's history: the cache holds it.
    const followUp = 'Do you have parking for visitors?';
    expect((await harness.chat(visitor('2222222222222222222', followUp))).statusCode).toBe(200);
    expect(JSON.stringify(engineCallFor(followUp).history)).toContain('Maria Lopez');

    const other = 'Is the pool open on Sundays?';
    expect((await harness.chat(visitor('QUJDREVGR0g=', other))).statusCode).toBe(200);
    const seen = JSON.stringify(engineCallFor(other).history);
    expect(seen).not.toContain('Maria');
    expect(seen).not.toContain('305-482-7719');
    expect(engineCallFor(other).history).toEqual([]);
  });

  it("does not make visitor B wait behind visitor A's slow chat", async () => {
    harness.svc.stubs.engine.handle((req, res) => {
      const slow = (req.body as { message: string }).message.includes('slow');
      setTimeout(() => sendJson(res, 200, engineReply()), slow ? 1500 : 0);
    });
    const slow = harness.chat(visitor('3333333333333333333', 'a slow question about the gym'));
    await sleep(100);
    const started = performance.now();
    const quick = await harness.chat(visitor('4444444444444444444', 'a quick question about the pool'));
    expect(quick.statusCode).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(quick.json().latency.steps.waitForTurn).toBeLessThan(100);
    expect((await slow).statusCode).toBe(200);
  });

  it('counts the session rate limit per conversation, and still limits one conversation', async () => {
    const statuses: number[] = [];
    for (const conversation_id of ['5555555555555555551', '5555555555555555552', '5555555555555555553']) {
      statuses.push((await harness.chat(visitor(conversation_id, 'What are your office hours?'))).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200]);
    const one = '6666666666666666666';
    const again = [];
    for (let i = 0; i < 3; i += 1) again.push((await harness.chat(visitor(one, `Question number ${i}?`))).statusCode);
    expect(again).toEqual([200, 200, 429]);
  });
});
