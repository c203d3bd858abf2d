import { describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

/** docs/api.md#overload-and-input-depth: a saturated event loop sheds new chats with a 503; probes and scrapes still answer. */
const PREFIX = '/chat-svc';
const harness = useStubbedService({ ROUTE_PREFIX: PREFIX, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '1000' });

/** Blocks the event loop for `ms` in each of `ticks` consecutive turns (timers, not a route). */
function blockEventLoop(ticks: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const busy = (left: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        // burn CPU: nothing else runs meanwhile
      }
      if (left > 1) setTimeout(() => busy(left - 1), 0);
      else setTimeout(resolve, 0);
    };
    setTimeout(() => busy(ticks), 0);
  });
}

describe('an event loop delayed by more than 1 s', () => {
  it('answers new chats 503 "Service overloaded" with Retry-After, calling nobody, while /heartbeat and /metrics answer', async () => {
    const { app, stubs } = harness.svc;
    expect((await harness.chat(chatRequest())).statusCode).toBe(200);
    // under-pressure measures the mean delay over a second: several consecutive slow turns.
    await blockEventLoop(3, 1_300);

    const before = Object.values(stubs).map((s) => s.requests.length);
    for (const url of ['/chat_adapter', `${PREFIX}/chat_adapter`]) {
      const res = await app.inject({ method: 'POST', url, payload: chatRequest() });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: 'Service overloaded' });
      expect(res.headers['retry-after']).toBe('5');
    }
    for (const url of ['/heartbeat', '/metrics', `${PREFIX}/heartbeat`]) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    expect(Object.values(stubs).map((s) => s.requests.length)).toEqual(before);
    const completed = harness.svc.logs.filter((l) => l.includes('"request completed"') && l.includes('"status":503'));
    expect(completed.length).toBeGreaterThanOrEqual(2);
    // Counted by reason, and one rate-limited warning (not one per refusal) with its trace id.
    const scrape = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(scrape).toMatch(/^chat_adapter_shed_total\{reason="event_loop_delay"\} 2$/m);
    const refused = harness.svc.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['msg'] === 'request refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ level: 40, status: 503, reason: 'Service overloaded', suppressed: 0 });
    expect(refused[0]!['trace_id']).toMatch(/^[0-9a-f]{32}$/);
  }, 30_000);

  it('answers chats again once the loop has recovered', async () => {
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await harness.chat(chatRequest())).statusCode;
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
  }, 15_000);
});
