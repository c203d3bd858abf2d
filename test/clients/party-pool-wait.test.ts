/**
 * A party's connection pool has a bounded wait (docs/api.md#fair-shares): a chat that finds every
 * engine connection taken waits at most its share of the time it has, then gets 503 `engine
 * unavailable` with `Retry-After` at once, counted per party; it is never queued to its deadline.
 */
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartySlots } from '../../src/clients/party-slots.ts';
import { PartyPoolBusyError } from '../../src/errors.ts';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { metricValue } from '../helpers/metric-value.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PartySlots', () => {
  it('lets `capacity` calls through, then the first waiter gets the first slot given back', async () => {
    const slots = new PartySlots({ party: 'engine', capacity: 2, waitShare: 0.5 });
    const a = await slots.acquire(10_000, undefined);
    await slots.acquire(10_000, undefined);
    const order: string[] = [];
    const third = slots.acquire(10_000, undefined).then((release) => (order.push('third'), release));
    const fourth = slots.acquire(10_000, undefined).then((release) => (order.push('fourth'), release));
    expect(slots.inUse).toBe(2);
    a();
    a(); // a second release gives back nothing more
    (await third)();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
    expect(slots.inUse).toBe(2);
  });

  it('refuses a waiter after its share of the time left before the deadline, and counts it', async () => {
    const rejected: string[] = [];
    const waits: number[] = [];
    const slots = new PartySlots({ party: 'graphql', capacity: 1, waitShare: 0.2, events: { rejected: (p) => rejected.push(p), waited: (_p, s) => waits.push(s) } });
    const held = await slots.acquire(30_000, undefined);
    const started = performance.now();
    // 1 s left before the deadline (the party's own timeout is longer): a share of 0.2 is 200 ms.
    const refused = await slots.acquire(30_000, performance.now() + 1_000).catch((err: unknown) => err);
    const waited = performance.now() - started;
    expect(refused).toBeInstanceOf(PartyPoolBusyError);
    expect((refused as PartyPoolBusyError).party).toBe('graphql');
    expect(waited).toBeGreaterThanOrEqual(180);
    expect(waited).toBeLessThan(800);
    expect(rejected).toEqual(['graphql']);
    // The refused waiter left the line: the slot given back goes to the next one at once.
    held();
    const next = await slots.acquire(30_000, undefined);
    expect(slots.inUse).toBe(1);
    next();
    expect(waits).toHaveLength(2);
  });
});

describe('a chat that cannot get an engine connection', () => {
  let svc: StubbedService;
  const HOLD_MS = 3_000;

  beforeAll(async () => {
    // Two engine connections, a 5 s deadline: a chat may wait 20 % of it (1 s) for a connection.
    svc = await startStubbedService({ REQUEST_TIMEOUT_MS: '5000', PARTY_POOL_WAIT_PERCENT: '20', RATE_LIMIT_SESSION_PER_MIN: '0' }, { poolConnections: 2 });
    svc.stubs.engine.handle(async (_req, res) => {
      await sleep(HOLD_MS);
      sendJson(res, 200, engineReply());
    });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const chat = () => svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest({ session_id: newSessionId() }) });

  it('is answered 503 engine unavailable with Retry-After within its share, while the others complete', async () => {
    const holders = [chat(), chat()];
    await sleep(200);
    const started = performance.now();
    const refused = await chat();
    const tookMs = performance.now() - started;
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ detail: 'engine unavailable' });
    expect(refused.headers['retry-after']).toBe('1');
    // About a fifth of the 5 s deadline, never the whole of it (nor the 3 s the holders take).
    expect(tookMs).toBeGreaterThan(700);
    expect(tookMs).toBeLessThan(2_500);
    const scrape = await svc.metrics.scrape();
    expect(metricValue(scrape, 'chat_adapter_party_pool_rejections_total{party="engine"}')).toBe(1);
    expect(metricValue(scrape, 'chat_adapter_party_pool_in_use{party="engine"}')).toBe(2);
    for (const held of await Promise.all(holders)) expect(held.statusCode).toBe(200);
    // Once a connection is free the next chat gets it.
    expect((await chat()).statusCode).toBe(200);
    const after = await svc.metrics.scrape();
    expect(metricValue(after, 'chat_adapter_party_pool_in_use{party="engine"}')).toBe(0);
    expect(metricValue(after, 'chat_adapter_party_pool_wait_seconds_count{party="engine"}')).toBe(3);
  });
});
