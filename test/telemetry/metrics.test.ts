import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { graphqlStubHandler, startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { waitFor } from './traced-service.ts';

let svc: StubbedService;
beforeAll(async () => {
  svc = await startStubbedService({ ROUTE_PREFIX: '/chat-svc' });
});
afterAll(async () => {
  await svc.close();
});

async function scrape(url = '/metrics'): Promise<string> {
  const res = await svc.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/plain');
  return res.body;
}

/** The value of one sample, e.g. `name{a="b"}`; labels must be given in the order prom-client writes them. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const chat = (overrides: Record<string, unknown> = {}) =>
  svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(overrides) });

describe('GET /metrics', () => {
  it('counts requests by route and status, steps by step, and downstream calls by party', async () => {
    const before = await scrape();
    const okBefore = sample(before, 'chat_adapter_http_request_duration_seconds_count{method="POST",route="/chat_adapter",status_code="200",mode="json"}') ?? 0;
    expect((await chat()).statusCode).toBe(200);
    expect((await chat()).statusCode).toBe(200);
    expect((await chat({ propertyId: 'not-an-id' })).statusCode).toBe(400);

    const text = await scrape();
    expect(sample(text, 'chat_adapter_http_request_duration_seconds_count{method="POST",route="/chat_adapter",status_code="200",mode="json"}')).toBe(okBefore + 2);
    expect(sample(text, 'chat_adapter_http_request_duration_seconds_count{method="POST",route="/chat_adapter",status_code="400",mode="json"}')).toBe(1);
    expect(sample(text, 'chat_adapter_step_duration_seconds_count{step="askEngine",outcome="ok"}')).toBe(okBefore + 2);
    expect(sample(text, 'chat_adapter_step_duration_seconds_count{step="storeAnswer",outcome="ok"}')).toBe(okBefore + 2);
    expect(sample(text, 'chat_adapter_downstream_duration_seconds_count{party="engine",outcome="ok"}')).toBe(okBefore + 2);
    expect(sample(text, 'chat_adapter_downstream_duration_seconds_count{party="graphql",outcome="ok"}')).toBe(2 * (okBefore + 2));
    // Durations are real: the sum is positive and below a generous bound.
    const sum = sample(text, 'chat_adapter_http_request_duration_seconds_sum{method="POST",route="/chat_adapter",status_code="200",mode="json"}')!;
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeLessThan(10);
  });

  it('counts failed downstream attempts by party and reason, and the failing step as an error', async () => {
    svc.stubs.graphql.handle((_req, res) => sendJson(res, 502, { error: 'bad gateway' }));
    try {
      expect((await chat()).statusCode).toBe(503);
    } finally {
      svc.stubs.graphql.handle(graphqlStubHandler());
    }
    const text = await scrape();
    expect(sample(text, 'chat_adapter_downstream_errors_total{party="graphql",reason="status_502"}')).toBe(3);
    expect(sample(text, 'chat_adapter_step_duration_seconds_count{step="storeQuestion",outcome="error"}')).toBe(1);
    expect(sample(text, 'chat_adapter_http_request_duration_seconds_count{method="POST",route="/chat_adapter",status_code="503",mode="json"}')).toBe(1);
  });

  it('shows the outbox depth while a handoff is delivered, attempts by outcome, and a dead letter', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    svc.stubs.handoff.handle(async (_req, res) => {
      if (++calls > 1) return sendJson(res, 400, { error: 'bad handoff' });
      await held;
      sendJson(res, 503, { error: 'busy' });
    });
    svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ sub_intent: 'emergency_maintenance' })));
    try {
      expect(sample(await scrape(), 'chat_adapter_handoff_dead_letters_total{store="local"}')).toBe(0);
      expect((await chat()).statusCode).toBe(200);
      await waitFor(() => (calls === 1 ? true : undefined), 5_000, 'the delivery to start');
      let text = await scrape();
      expect(sample(text, 'chat_adapter_handoffs_enqueued_total{store="local"}')).toBe(1);
      expect(sample(text, 'chat_adapter_handoff_outbox_depth{store="local",state="delivering"}')).toBe(1);
      expect(sample(text, 'chat_adapter_handoff_oldest_undelivered_age_seconds{store="local"}')).toBeGreaterThan(0);
      release();
      // A 503 is retried (backoff 20..200 ms in tests); the 400 that follows is dead-lettered.
      await waitFor(() => (svc.logs.some((l) => l.includes('handoff dead-lettered')) ? true : undefined), 5_000, 'the dead letter');
      text = await scrape();
      expect(sample(text, 'chat_adapter_handoff_delivery_attempts_total{store="local",outcome="retryable"}')).toBe(1);
      expect(sample(text, 'chat_adapter_handoff_delivery_attempts_total{store="local",outcome="permanent"}')).toBe(1);
      expect(sample(text, 'chat_adapter_handoff_dead_letters_total{store="local"}')).toBe(1);
      expect(sample(text, 'chat_adapter_handoff_outbox_depth{store="local",state="dead"}')).toBe(1);
      expect(sample(text, 'chat_adapter_handoff_outbox_depth{store="local",state="delivering"}')).toBe(0);
      expect(sample(text, 'chat_adapter_handoff_oldest_undelivered_age_seconds{store="local"}')).toBe(0);
      expect(sample(text, 'chat_adapter_downstream_errors_total{party="handoff",reason="status_503"}')).toBe(1);
    } finally {
      svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    }
  });

  it('counts cache lookups of real chats: a new question is a miss, the same question again a hit', async () => {
    const metric = (text: string, result: string) => sample(text, `chat_adapter_cache_lookups_total{result="${result}"}`) ?? 0;
    const before = await scrape();
    const payload = chatRequest({ message: 'What time does the leasing office open on Saturdays?' });
    expect((await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload })).statusCode).toBe(200);
    expect((await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload })).statusCode).toBe(200);
    const after = await scrape();
    expect(metric(after, 'miss') - metric(before, 'miss')).toBe(1);
    expect(metric(after, 'hit') - metric(before, 'hit')).toBe(1);
    expect(metric(after, 'error')).toBe(metric(before, 'error'));
  });

  it('shows how many sessions the in-process cache holds', async () => {
    const other = await startStubbedService();
    try {
      const sessions = async () => sample(await other.metrics.scrape(), 'chat_adapter_cache_sessions');
      expect(await sessions()).toBe(0);
      const chatIn = (session_id: string) => other.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest({ session_id }) });
      expect((await chatIn('a3f1c2d4e5b60718293a4b5c6d7e8f90')).statusCode).toBe(200);
      expect((await chatIn('a3f1c2d4e5b60718293a4b5c6d7e8f90')).statusCode).toBe(200);
      expect(await sessions()).toBe(1);
      expect((await chatIn('b3f1c2d4e5b60718293a4b5c6d7e8f90')).statusCode).toBe(200);
      expect(await sessions()).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('serves process metrics too, and the same registry under ROUTE_PREFIX', async () => {
    const text = await scrape('/chat-svc/metrics');
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect((await svc.app.inject({ method: 'POST', url: '/chat-svc/chat_adapter', payload: chatRequest() })).statusCode).toBe(200);
    const after = await scrape('/metrics');
    expect(sample(after, 'chat_adapter_http_request_duration_seconds_count{method="POST",route="/chat-svc/chat_adapter",status_code="200",mode="json"}')).toBe(1);
    expect(sample(after, 'chat_adapter_http_request_duration_seconds_count{method="GET",route="/chat-svc/metrics",status_code="200",mode="json"}')).toBe(1);
  });

  it('labels unknown paths as unmatched instead of recording raw URLs', async () => {
    await svc.app.inject({ method: 'GET', url: '/no/such/path?token=abc' });
    const text = await scrape();
    expect(sample(text, 'chat_adapter_http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404",mode="json"}')).toBe(1);
    expect(text).not.toContain('/no/such/path');
  });

  it('keeps one registry per app: a second app counts only its own traffic', async () => {
    const other = await startStubbedService();
    try {
      await other.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
      const mine = sample(await scrape(), 'chat_adapter_downstream_duration_seconds_count{party="engine",outcome="ok"}');
      const theirs = sample(await other.metrics.scrape(), 'chat_adapter_downstream_duration_seconds_count{party="engine",outcome="ok"}');
      expect(theirs).toBe(1);
      expect(mine).toBeGreaterThan(1);
    } finally {
      await other.close();
    }
  });
});
