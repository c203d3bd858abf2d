/**
 * Signed handoff deliveries (docs/handoff-receivers.md): the real outbox delivers over loopback to a
 * receiver that verifies each delivery with the npm `standardwebhooks` package, which accepts every
 * genuine delivery and refuses every forgery (a changed body, a new id, an old timestamp, a secret it
 * does not know).
 */
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandoffOutbox } from '../../src/outbox/create-handoff-outbox.ts';
import type { Outbox } from '../../src/outbox/outbox.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { handoff } from './outbox-contract.ts';
import { startSigningReceiver, verifyWithLibrary } from './signing-receiver.ts';

const secret = (seed: string) => `whsec_${Buffer.from(seed.padEnd(32, '.')).toString('base64')}`;
const NEW_SECRET = secret('the newest handoff secret');
const OLD_SECRET = secret('the previous handoff secret');
const SIGNATURE = /^v1,[A-Za-z0-9+/]{43}=$/;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function capturingLogger() {
  const lines: string[] = [];
  const log = (level: string) => (obj: object, msg?: string) => lines.push(JSON.stringify({ level, ...obj, msg }));
  return { lines, logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') } };
}

interface ServiceOptions {
  readonly signingClock?: () => number;
  readonly redisUrl?: string;
  readonly legacy?: boolean;
}

async function service(receiverUrl: string, secrets: readonly string[], options: ServiceOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'handoff-signature-'));
  const dispatcher = new Agent();
  const { lines, logger } = capturingLogger();
  const outbox: Outbox = await createHandoffOutbox({
    dataDir: dir,
    redis: options.redisUrl,
    maxAgeSeconds: 60,
    lockMs: 1_000,
    receiver: { party: 'handoff', baseUrl: receiverUrl, timeoutMs: 2_000, dispatcher },
    signingSecrets: secrets,
    legacySignature: options.legacy ?? false,
    logger,
    tuning: {
      backoff: { baseMs: 20, capMs: 20 },
      pollIntervalMs: 10,
      queueName: `handoffs-${randomUUID()}`,
      ...(options.signingClock === undefined ? {} : { signingClock: options.signingClock }),
    },
  });
  outbox.start();
  cleanups.push(async () => {
    await outbox.stop(0);
    await outbox.close();
    await dispatcher.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { outbox, lines };
}

async function receiver(secrets: readonly string[], script: number[] = []) {
  const r = await startSigningReceiver(secrets, script);
  cleanups.push(r.close);
  return r;
}

async function until(check: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('Standard Webhooks handoff deliveries, verified by the standardwebhooks package over loopback', () => {
  it('a delivery carries webhook-id = handoff_id, a current webhook-timestamp and one v1 signature the library verifies', async () => {
    const r = await receiver([NEW_SECRET]);
    const { outbox, lines } = await service(r.url, [NEW_SECRET]);
    const h = handoff();
    await outbox.enqueue(h);
    await until(() => r.received.length === 1);
    const got = r.received[0]!;
    expect(got.refused).toBeUndefined();
    expect(got.status).toBe(202);
    expect(got.headers['webhook-id']).toBe(h.handoff_id);
    expect(got.headers['idempotency-key']).toBe(h.handoff_id);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(5);
    expect(got.headers['webhook-signature']).toMatch(SIGNATURE);
    // The library's own signer, given the same id, timestamp and body, makes the same signature.
    const at = new Date(Number(got.headers['webhook-timestamp']) * 1000);
    expect(got.headers['webhook-signature']).toBe(new Webhook(NEW_SECRET).sign(h.handoff_id, at, got.body));
    expect(new Webhook(NEW_SECRET).verify(got.body, got.headers)).toEqual(h);
    // The former header is not sent unless asked for, and the secret is never written to a log line.
    expect(got.headers['x-chat-adapter-signature']).toBeUndefined();
    expect(lines.join('\n')).not.toContain(NEW_SECRET);
  });

  it('forgeries of a captured delivery are refused: a changed body, a new webhook-id, a changed timestamp', async () => {
    const r = await receiver([NEW_SECRET]);
    const { outbox } = await service(r.url, [NEW_SECRET]);
    await outbox.enqueue(handoff());
    await until(() => r.received.length === 1);
    const { headers, body } = r.received[0]!;
    const tampered = body.replace('"message":"', '"message":"(changed) ');
    expect(tampered).not.toBe(body);
    expect(await r.resend(headers, tampered)).toBe(401);
    // A replay under a new id (what a receiver deduplicating on webhook-id would take as new).
    expect(await r.resend({ ...headers, 'webhook-id': randomUUID() }, body)).toBe(401);
    expect(await r.resend({ ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) }, body)).toBe(401);
    expect(r.received.slice(1).map((x) => x.refused)).toEqual(['No matching signature found', 'No matching signature found', 'No matching signature found']);
    // The genuine delivery, re-sent as it was (a network retry), still verifies: the receiver dedupes it on webhook-id.
    expect(await r.resend(headers, body)).toBe(202);
  });

  it('a delivery with an old timestamp (over 5 minutes) is refused, and dead-lettered rather than retried', async () => {
    const r = await receiver([NEW_SECRET]);
    const { outbox } = await service(r.url, [NEW_SECRET], { signingClock: () => Date.now() - 6 * 60_000 });
    await outbox.enqueue(handoff());
    await until(async () => (await outbox.list('dead')).length === 1);
    expect(r.received.map((x) => [x.status, x.refused])).toEqual([[401, 'Message timestamp too old']]);
  });

  it('a delivery signed with a secret the receiver does not know is refused', async () => {
    const r = await receiver([NEW_SECRET]);
    const { outbox } = await service(r.url, [secret('somebody else entirely')]);
    await outbox.enqueue(handoff());
    await until(() => r.received.length === 1);
    expect(r.received[0]?.refused).toBe('No matching signature found');
  });

  it('rotation: one v1 entry per secret, the newest first; receivers on the old or the new secret both verify', async () => {
    const onOld = await receiver([OLD_SECRET]);
    const onNew = await receiver([NEW_SECRET]);
    const a = await service(onOld.url, [NEW_SECRET, OLD_SECRET]);
    const b = await service(onNew.url, [NEW_SECRET, OLD_SECRET]);
    await a.outbox.enqueue(handoff());
    await b.outbox.enqueue(handoff());
    await until(() => onOld.received.length === 1 && onNew.received.length === 1);
    expect([onOld.received[0]?.status, onNew.received[0]?.status]).toEqual([202, 202]);
    const got = onOld.received[0]!;
    const at = new Date(Number(got.headers['webhook-timestamp']) * 1000);
    const id = got.headers['webhook-id']!;
    expect(got.headers['webhook-signature']).toBe(`${new Webhook(NEW_SECRET).sign(id, at, got.body)} ${new Webhook(OLD_SECRET).sign(id, at, got.body)}`);
  });

  it('rotation: once the old secret is dropped from the service, a receiver still on it alone refuses', async () => {
    const r = await receiver([OLD_SECRET]);
    const { outbox } = await service(r.url, [NEW_SECRET]);
    await outbox.enqueue(handoff());
    await until(() => r.received.length === 1);
    expect(r.received[0]?.status).toBe(401);
    // Once the receiver lists the new secret too, the same delivery verifies.
    expect(verifyWithLibrary([OLD_SECRET, NEW_SECRET], r.received[0]!.body, r.received[0]!.headers)).toBeUndefined();
  });

  it('a retry carries the same webhook-id and body with a fresh timestamp and signature', async () => {
    const r = await receiver([NEW_SECRET], [503]);
    let calls = 0;
    // Each attempt reads the clock once: the second attempt is a minute later (still within the tolerance).
    const clock = () => Date.now() - 60_000 + 60_000 * calls++;
    const { outbox } = await service(r.url, [NEW_SECRET], { signingClock: clock });
    await outbox.enqueue(handoff());
    await until(() => r.received.length === 2);
    const [first, second] = r.received;
    expect([first?.status, second?.status]).toEqual([503, 202]);
    expect(second?.body).toBe(first?.body);
    expect(second?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(Number(second?.headers['webhook-timestamp']) - Number(first?.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(59);
    expect(second?.headers['webhook-signature']).not.toBe(first?.headers['webhook-signature']);
  });

  it('HANDOFF_LEGACY_SIGNATURE: the former X-Chat-Adapter-Signature is sent as well, keyed with each secret\'s text', async () => {
    const r = await receiver([NEW_SECRET]);
    const { outbox } = await service(r.url, [NEW_SECRET, OLD_SECRET], { legacy: true });
    await outbox.enqueue(handoff());
    await until(() => r.received.length === 1);
    const got = r.received[0]!;
    expect(got.status).toBe(202);
    const t = got.headers['webhook-timestamp'];
    const mac = (key: string) => createHmac('sha256', key).update(`${t}.${got.body}`).digest('hex');
    expect(got.headers['x-chat-adapter-signature']).toBe(`t=${t},v1=${mac(NEW_SECRET)},v1=${mac(OLD_SECRET)}`);
  });

  it('without HANDOFF_SIGNING_SECRET only webhook-id is sent: no timestamp, no signature', async () => {
    const r = await receiver([]);
    const { outbox } = await service(r.url, []);
    const h = handoff();
    await outbox.enqueue(h);
    await until(() => r.received.length === 1);
    const got = r.received[0]!.headers;
    expect(got['webhook-id']).toBe(h.handoff_id);
    expect([got['webhook-timestamp'], got['webhook-signature'], got['x-chat-adapter-signature']]).toEqual([undefined, undefined, undefined]);
  });
});

describe('signed handoff deliveries through the shared outbox (BullMQ on a real Redis)', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('signs every attempt the same way: a 503 then a fresh signature the library verifies, over the same id and body', async () => {
    const r = await receiver([NEW_SECRET], [503]);
    const { outbox } = await service(r.url, [NEW_SECRET], { redisUrl: redis.url });
    const h = handoff();
    await outbox.enqueue(h);
    await until(() => r.received.length === 2, 10_000);
    const [first, second] = r.received;
    expect([first?.refused, second?.refused]).toEqual([undefined, undefined]);
    expect([first?.status, second?.status]).toEqual([503, 202]);
    expect(JSON.parse(second?.body ?? '{}')).toEqual(h);
    expect(second?.body).toBe(first?.body);
    expect(second?.headers['webhook-id']).toBe(h.handoff_id);
  });
});
