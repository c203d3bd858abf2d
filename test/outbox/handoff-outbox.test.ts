/**
 * docs/operations.md#handoffs-and-dead-letters through the real service (real clients, real sockets, a real SQLite file, a real
 * redis-server): the handoff outbox as a visitor and an operator meet it. Retries are 20..200 ms
 * apart here (test tuning); the policy is the same as in production.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { handoffReceiverOn } from '../helpers/handoff-receiver.ts';
import { freePort, startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { waitFor } from './outbox-contract.ts';

const ADMIN_KEY = 'admin-KEY-for-tests-0123456789';
const admin = { authorization: `Bearer ${ADMIN_KEY}` };
const EMERGENCY = 'Water is pouring through the ceiling! I am Dana Whitfield, 415-555-0134';

function emergencyEngine(svc: StubbedService): void {
  svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ intent: 'maintenance', sub_intent: 'emergency_maintenance' })));
}

const chat = (svc: StubbedService, message = EMERGENCY) =>
  svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest({ message }) });

describe('a receiver down for a few seconds', () => {
  it('gets the handoff once it is up again: delivered once, the same Idempotency-Key on every attempt', async () => {
    const receiver = handoffReceiverOn(await freePort());
    const svc = await startStubbedService({ HANDOFF_URL: receiver.url });
    try {
      emergencyEngine(svc);
      // Answered while the receiver is down: the reply never waits for the delivery.
      const res = await chat(svc);
      expect(res.statusCode).toBe(200);
      expect(res.json().agent_handoff).toEqual({ requested: true, reason: 'emergency_maintenance' });
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const failures = svc.logs.filter((l) => l.includes('handoff delivery failed')).map((l) => JSON.parse(l) as { handoff_id: string; reason: string });
      expect(failures.length).toBeGreaterThanOrEqual(3);
      expect(new Set(failures.map((f) => f.reason))).toEqual(new Set(['unreachable']));
      await receiver.up();
      await waitFor(() => receiver.accepted[0], 5_000, 'the delivery');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.accepted).toHaveLength(1);
      const [delivered] = receiver.accepted;
      expect(delivered?.key).toBe(failures[0]?.handoff_id);
      expect(new Set(failures.map((f) => f.handoff_id))).toEqual(new Set([delivered?.key]));
      expect(delivered?.body).toMatchObject({ handoff_id: delivered?.key, sub_intent: 'emergency_maintenance', message: EMERGENCY.trim(), trace_id: res.json().trace_id });
    } finally {
      await svc.close();
      await receiver.down();
    }
  }, 30_000);
});

describe('a handoff the receiver refuses (400)', () => {
  let svc: StubbedService;
  beforeAll(async () => {
    svc = await startStubbedService({ ADMIN_API_KEY: ADMIN_KEY });
  });
  afterAll(async () => svc.close());

  it('is not retried, is dead-lettered and listed; the retry route queues it again and it is delivered', async () => {
    emergencyEngine(svc);
    svc.stubs.handoff.handle((_req, res) => sendJson(res, 400, { detail: 'unknown property' }));
    expect((await chat(svc)).statusCode).toBe(200);
    const dead = await waitFor(async () => {
      const res = await svc.app.inject({ method: 'GET', url: '/admin/handoffs?status=dead', headers: admin });
      return res.json().handoffs.length === 1 ? res : undefined;
    }, 5_000, 'the dead letter');
    expect(dead.statusCode).toBe(200);
    expect(dead.body).not.toMatch(/Dana|415-555|ceiling/);
    const [entry] = dead.json().handoffs;
    expect(entry).toEqual({ handoff_id: expect.any(String), created_at: expect.any(String), attempts: 1, last_error: 'status_400', status: 'dead' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(svc.stubs.handoff.requests).toHaveLength(1);
    expect(svc.logs.filter((l) => l.includes('handoff dead-lettered'))).toHaveLength(1);

    svc.stubs.handoff.handle((_req, res) => sendJson(res, 202, {}));
    const retried = await svc.app.inject({ method: 'POST', url: `/admin/handoffs/${entry.handoff_id}/retry`, headers: admin });
    expect(retried.statusCode).toBe(202);
    expect(retried.json()).toEqual({ handoff_id: entry.handoff_id, status: 'pending' });
    await waitFor(() => svc.stubs.handoff.requests[1], 5_000, 'the delivery after the retry');
    expect(svc.stubs.handoff.requests.map((r) => r.headers['idempotency-key'])).toEqual([entry.handoff_id, entry.handoff_id]);
    await waitFor(async () => ((await svc.outbox.list('dead')).length === 0 ? true : undefined), 5_000, 'the dead letter to go');
    const again = await svc.app.inject({ method: 'POST', url: `/admin/handoffs/${entry.handoff_id}/retry`, headers: admin });
    expect(again.statusCode).toBe(409);
  });
});

describe('no outbox can be written', () => {
  it('answers 503 "handoff unavailable" for a chat with a handoff, and 200 for one without', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-adapter-nodir-'));
    writeFileSync(join(dir, 'not-a-directory'), '');
    const svc = await startStubbedService({ DATA_DIR: join(dir, 'not-a-directory') });
    try {
      emergencyEngine(svc);
      const res = await chat(svc);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: 'handoff unavailable' });
      expect(svc.stubs.handoff.requests).toHaveLength(0);
      svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
      expect((await chat(svc, 'What are your office hours?')).statusCode).toBe(200);
      expect(await svc.outbox.ready()).toBe(false);
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('with REDIS_URL', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => redis?.stop());

  it('writes to the local outbox while Redis is down (chat 200, delivered), and to Redis again once it is back', async () => {
    const svc = await startStubbedService({ REDIS_URL: redis.url });
    try {
      emergencyEngine(svc);
      await waitFor(async () => ((await svc.outbox.ready()) ? true : undefined), 5_000, 'Redis');
      await redis.stop();
      const res = await chat(svc);
      expect(res.statusCode).toBe(200);
      await waitFor(() => svc.stubs.handoff.requests[0], 5_000, 'the delivery from the local outbox');
      expect(svc.logs.some((l) => l.includes('shared handoff outbox unavailable; writing to the local outbox'))).toBe(true);
      expect(await svc.outbox.ready()).toBe(true);

      await redis.start();
      await waitFor(async () => ((await svc.outbox.counts()).length === 2 ? true : undefined), 10_000, 'Redis to be back');
      expect((await chat(svc)).statusCode).toBe(200);
      await waitFor(() => svc.stubs.handoff.requests[1], 10_000, 'the delivery from Redis');
      const scrape = (await svc.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(scrape).toContain('chat_adapter_handoffs_enqueued_total{store="local"} 1');
      expect(scrape).toContain('chat_adapter_handoffs_enqueued_total{store="shared"} 1');
      const keys = svc.stubs.handoff.requests.map((r) => r.headers['idempotency-key']);
      expect(new Set(keys).size).toBe(2);
    } finally {
      await svc.close();
    }
  }, 30_000);
});
