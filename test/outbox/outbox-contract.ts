/**
 * One behavioural suite for every handoff outbox store (local SQLite and shared BullMQ must agree),
 * against a real receiver on a loopback port and the real delivery client. Timings are short
 * (retries 20..100 ms apart, claims and locks of 1 s), so the suite stays fast.
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { Handoff } from '../../schemas/handoff.schema.ts';
import { createPartyPool } from '../../src/clients/party-pool.ts';
import { deliverHandoff } from '../../src/clients/handoff-client.ts';
import type { RetryPolicy } from '../../src/outbox/delivery-policy.ts';
import type { Deliver, Outbox, OutboxEvents } from '../../src/outbox/outbox.ts';
import type { Logger } from '../../src/pipeline/ports.ts';
import { sendJson, startStub, type RecordedRequest, type StubServer } from '../helpers/stub-server.ts';

export interface StoreSetup {
  readonly deliver: Deliver;
  readonly policy: RetryPolicy;
  readonly logger: Logger;
  readonly events: OutboxEvents;
}

/** A store under test; `another()` is a second instance on the same storage (a restart, or a peer). */
export interface StoreUnderTest {
  readonly outbox: Outbox;
  another(): Outbox;
  dispose(): Promise<void>;
}

export type StoreFactory = (setup: StoreSetup) => Promise<StoreUnderTest>;

const MESSAGE = 'Water is pouring through the ceiling, I am Dana Whitfield 415-555-0134';

export function handoff(overrides: Partial<Handoff> = {}): Handoff {
  return {
    handoff_id: randomUUID(),
    conversation_id: '1111111111111111111',
    propertyId: '1234567890123456789',
    orgId: '9876543210987654321',
    session_id: 'd41d8cd98f00b204e9800998ecf8427e',
    intent: 'maintenance',
    sub_intent: 'emergency_maintenance',
    message: MESSAGE,
    contact: { name: 'Dana Whitfield', phone: '+14155550134', email: 'dana@example.com' },
    trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
    language: 'en',
    reply: 'Someone from the team will contact you shortly.',
    transcript: [
      { role: 'user', content: MESSAGE },
      { role: 'assistant', content: 'Someone from the team will contact you shortly.' },
    ],
    requested_at: '2026-11-25T18:00:00.000Z',
    ...overrides,
  };
}

/** Answers each request with the next status of `statuses` (the last one repeats); 0 = reset the connection. */
export function scripted(...statuses: number[]) {
  let n = 0;
  return (_req: RecordedRequest, res: ServerResponse) => {
    const status = statuses[Math.min(n++, statuses.length - 1)]!;
    if (status === 0) res.socket?.destroy();
    else sendJson(res, status, {});
  };
}

/** Polls `check` (sync or async) until it gives a value, or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const keys = (receiver: StubServer) => receiver.requests.map((r) => r.headers['idempotency-key']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeOutboxContract(name: string, factory: StoreFactory): void {
  describe(`${name} handoff outbox (shared contract)`, () => {
    const cleanup: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const done of cleanup.splice(0).reverse()) await done();
    });

    async function setUp(policy: Partial<RetryPolicy> = {}) {
      const receiver = await startStub(scripted(202));
      const agent = createPartyPool(receiver.url);
      const lines: string[] = [];
      const log = (obj: object, msg: string) => lines.push(JSON.stringify({ ...obj, msg }));
      const logger: Logger = { debug: log, info: log, warn: log, error: log };
      const seen = { enqueued: 0, delivered: 0, retryable: 0, permanent: 0, dead: 0 };
      const events: OutboxEvents = {
        enqueued: () => seen.enqueued++,
        attempted: (_store, outcome) => seen[outcome]++,
        deadLettered: () => seen.dead++,
      };
      const deliver: Deliver = (h, trace) =>
        deliverHandoff({ party: 'handoff', baseUrl: receiver.url, timeoutMs: 2_000, dispatcher: agent }, h, trace);
      const store = await factory({ deliver, logger, events, policy: { backoff: { baseMs: 20, capMs: 100 }, maxAgeMs: 60_000, ...policy } });
      cleanup.push(async () => {
        await store.dispose();
        await agent.close();
        await receiver.close();
        // Nothing any store logged may carry the visitor's message or contact.
        expect(lines.join('\n')).not.toMatch(/Dana|Whitfield|415-555|5550134|dana@|ceiling/);
      });
      return { ...store, receiver, seen };
    }

    const undelivered = async (outbox: Outbox) => (await outbox.counts()).reduce((n, c) => n + c.pending + c.delivering, 0);

    it('delivers a handoff once: the handoff body plus handoff_id, with Idempotency-Key = handoff_id', async () => {
      const { outbox, receiver, seen } = await setUp();
      const h = handoff();
      await outbox.enqueue(h);
      outbox.start();
      await waitFor(() => receiver.requests[0], 5_000, 'the delivery');
      expect(receiver.requests[0]?.body).toEqual(h);
      expect(receiver.requests[0]?.headers['idempotency-key']).toBe(h.handoff_id);
      await waitFor(async () => ((await undelivered(outbox)) === 0 ? true : undefined), 5_000, 'the outbox to empty');
      await sleep(300);
      expect(receiver.requests).toHaveLength(1);
      expect(seen).toMatchObject({ enqueued: 1, delivered: 1, retryable: 0, dead: 0 });
      expect(await outbox.list('pending')).toEqual([]);
      expect(await outbox.list('dead')).toEqual([]);
    });

    it('retries a reset connection, 503, 408 and 429 with the same key until the receiver accepts', async () => {
      const { outbox, receiver, seen } = await setUp();
      receiver.handle(scripted(0, 503, 408, 429, 202));
      const h = handoff();
      await outbox.enqueue(h);
      outbox.start();
      await waitFor(() => (seen.delivered === 1 ? true : undefined), 10_000, 'the delivery');
      expect(keys(receiver)).toEqual(Array(5).fill(h.handoff_id));
      expect(seen).toMatchObject({ retryable: 4, delivered: 1, dead: 0 });
      await sleep(300);
      expect(receiver.requests).toHaveLength(5);
    });

    it('lists a handoff still failing as pending, with its attempts and last error, never its text', async () => {
      const { outbox, receiver, seen } = await setUp();
      receiver.handle(scripted(503));
      const h = handoff();
      await outbox.enqueue(h);
      outbox.start();
      await waitFor(() => (seen.retryable >= 2 ? true : undefined), 5_000, 'two failed attempts');
      const [entry] = await outbox.list('pending');
      expect(entry).toMatchObject({ handoff_id: h.handoff_id, last_error: 'status_503' });
      expect(['pending', 'delivering']).toContain(entry?.status);
      expect(entry?.attempts).toBeGreaterThanOrEqual(1);
      expect(Date.parse(entry!.created_at)).toBeGreaterThan(Date.now() - 60_000);
      expect(Object.keys(entry!).sort()).toEqual(['attempts', 'created_at', 'handoff_id', 'last_error', 'status']);
      expect(await outbox.retry(h.handoff_id)).toBe('not_dead');
      expect(await outbox.retry(randomUUID())).toBe('not_found');
    });

    it('dead-letters a 400 at once; the retry re-queues it and it is delivered with the same key', async () => {
      const { outbox, receiver, seen } = await setUp();
      receiver.handle(scripted(400));
      const h = handoff();
      await outbox.enqueue(h);
      outbox.start();
      await waitFor(async () => ((await outbox.list('dead')).length === 1 ? true : undefined), 5_000, 'the dead letter');
      await sleep(300);
      expect(receiver.requests).toHaveLength(1);
      expect(seen).toMatchObject({ permanent: 1, retryable: 0 });
      const dead = await outbox.list('dead');
      expect(dead).toEqual([{ handoff_id: h.handoff_id, created_at: expect.any(String), attempts: 1, last_error: 'status_400', status: 'dead' }]);
      expect(await outbox.list('pending')).toEqual([]);
      expect((await outbox.counts()).reduce((n, c) => n + c.dead, 0)).toBe(1);

      receiver.handle(scripted(202));
      expect(await outbox.retry(h.handoff_id)).toBe('queued');
      await waitFor(() => (seen.delivered === 1 ? true : undefined), 5_000, 'the delivery after the retry');
      expect(keys(receiver)).toEqual([h.handoff_id, h.handoff_id]);
      expect(await outbox.list('dead')).toEqual([]);
    });

    it('dead-letters a handoff once HANDOFF_MAX_AGE_S has passed, and tries it no more', async () => {
      const { outbox, receiver, seen } = await setUp({ maxAgeMs: 400 });
      receiver.handle(scripted(503));
      const h = handoff();
      await outbox.enqueue(h);
      outbox.start();
      const [entry] = await waitFor(async () => {
        const dead = await outbox.list('dead');
        return dead.length === 1 ? dead : undefined;
      }, 5_000, 'the dead letter');
      expect(seen.dead).toBe(1);
      expect(entry?.last_error).toMatch(/^expired/);
      const tries = receiver.requests.length;
      expect(tries).toBeGreaterThanOrEqual(2);
      await sleep(400);
      expect(receiver.requests).toHaveLength(tries);
    });

    it('keeps what one instance left undelivered for the next, which delivers it', async () => {
      const { outbox, another, receiver, seen } = await setUp();
      receiver.handle(scripted(503));
      const h = handoff();
      await outbox.enqueue(h);
      outbox.start();
      await waitFor(() => (seen.retryable >= 1 ? true : undefined), 5_000, 'a failed attempt');
      await outbox.stop(1_000);
      await outbox.close();
      receiver.handle(scripted(202));
      const next = another();
      cleanup.push(async () => next.close());
      next.start();
      await waitFor(() => (seen.delivered === 1 ? true : undefined), 5_000, 'the delivery by the next instance');
      expect(new Set(keys(receiver))).toEqual(new Set([h.handoff_id]));
    });

    it('lets a delivery in flight finish on stop, within the grace', async () => {
      const { outbox, receiver } = await setUp();
      let answered = false;
      receiver.handle(async (_req, res) => {
        await sleep(300);
        answered = true;
        sendJson(res, 202, {});
      });
      await outbox.enqueue(handoff());
      outbox.start();
      await waitFor(() => receiver.requests[0], 5_000, 'the delivery to start');
      expect(await outbox.stop(3_000)).toBe(0);
      expect(answered).toBe(true);
      expect(await undelivered(outbox)).toBe(0);
    });

    it('takes over a handoff whose instance stopped mid-delivery, after its claim lapses', async () => {
      const { outbox, another, receiver, seen } = await setUp();
      receiver.handle(async (_req, res) => {
        await sleep(1_500);
        res.socket?.destroy();
      });
      const h = handoff();
      await outbox.enqueue(h);
      outbox.start();
      await waitFor(() => receiver.requests[0], 5_000, 'the delivery to start');
      // The grace runs out first: the delivery is abandoned as a killed process would leave it.
      expect(await outbox.stop(50)).toBe(1);
      receiver.handle(scripted(202));
      const peer = another();
      cleanup.push(async () => peer.close());
      peer.start();
      await waitFor(() => (seen.delivered >= 1 ? true : undefined), 10_000, 'the take-over');
      expect(new Set(keys(receiver))).toEqual(new Set([h.handoff_id]));
    });

    it('delivers many handoffs, each once, and counts them', async () => {
      const { outbox, receiver, seen } = await setUp();
      const many = Array.from({ length: 20 }, () => handoff());
      for (const h of many) await outbox.enqueue(h);
      const [counted] = (await outbox.counts()).filter((c) => c.pending > 0);
      expect(counted?.pending).toBe(20);
      expect(counted?.oldestUndeliveredSeconds).toBeGreaterThanOrEqual(0);
      outbox.start();
      await waitFor(() => (seen.delivered === 20 ? true : undefined), 10_000, 'every delivery');
      expect(keys(receiver).sort()).toEqual(many.map((h) => h.handoff_id).sort());
      await waitFor(async () => ((await undelivered(outbox)) === 0 ? true : undefined), 5_000, 'the outbox to empty');
      for (const c of await outbox.counts()) expect(c.oldestUndeliveredSeconds).toBeNull();
      expect(await outbox.ready()).toBe(true);
    });
  });
}
