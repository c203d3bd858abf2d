import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHandoffOutbox } from '../../src/outbox/create-handoff-outbox.ts';
import type { Outbox } from '../../src/outbox/outbox.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { handoff } from './outbox-contract.ts';
import { startSigningReceiver } from './signing-receiver.ts';

const NEW_SECRET = 'whsec_new_5f0c2b9e8a7d41c3';
const OLD_SECRET = 'whsec_old_91ab33d0e6f24c7b';
const SIGNATURE = /^t=(\d+)((?:,v1=[0-9a-f]{64})+)$/;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function capturingLogger() {
  const lines: string[] = [];
  const log = (level: string) => (obj: object, msg?: string) => lines.push(JSON.stringify({ level, ...obj, msg }));
  return { lines, logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') } };
}

async function service(receiverUrl: string, secrets: readonly string[], signingClock?: () => number, redisUrl?: string) {
  const dir = mkdtempSync(join(tmpdir(), 'handoff-signature-'));
  const dispatcher = new Agent();
  const { lines, logger } = capturingLogger();
  const outbox: Outbox = await createHandoffOutbox({
    dataDir: dir,
    redis: redisUrl,
    maxAgeSeconds: 60,
    lockMs: 1_000,
    receiver: { party: 'handoff', baseUrl: receiverUrl, timeoutMs: 2_000, dispatcher },
    signingSecrets: secrets,
    logger,
    tuning: { backoff: { baseMs: 20, capMs: 20 }, pollIntervalMs: 10, queueName: `handoffs-${randomUUID()}`, ...(signingClock === undefined ? {} : { signingClock }) },
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

describe('signed handoff deliveries (docs/contracts.md#handoff-receiver), over loopback to a receiver that checks them', () => {
  it('signs with the right secret: the receiver verifies HMAC-SHA256 over "<t>.<raw body>" and accepts', async () => {
    const r = await receiver([NEW_SECRET]);
    const { outbox, lines } = await service(r.url, [NEW_SECRET]);
    const h = handoff();
    await outbox.enqueue(h);
    await until(() => r.received.length === 1);
    const [got] = r.received;
    expect(got?.status).toBe(202);
    const [, t, v1s] = SIGNATURE.exec(got?.signature ?? '') ?? [];
    expect(Math.abs(Number(t) - Date.now() / 1000)).toBeLessThan(5);
    expect(v1s).toBe(`,v1=${createHmac('sha256', NEW_SECRET).update(`${t}.${got?.body}`).digest('hex')}`);
    expect(JSON.parse(got?.body ?? '{}')).toEqual(h);
    // The secret is never written to a log line.
    expect(lines.join('\n')).not.toContain(NEW_SECRET);
  });

  it('a delivery signed with a wrong secret is refused with 401 and dead-lettered, not retried', async () => {
    const r = await receiver([NEW_SECRET]);
    const { outbox } = await service(r.url, ['whsec_somebody_elses_0000']);
    const h = handoff();
    await outbox.enqueue(h);
    await until(async () => (await outbox.list('dead')).length === 1);
    expect(r.received.map((x) => x.status)).toEqual([401]);
  });

  it('a stale timestamp (over 5 minutes old) is refused with 401', async () => {
    const r = await receiver([NEW_SECRET]);
    const { outbox } = await service(r.url, [NEW_SECRET], () => Date.now() - 6 * 60_000);
    await outbox.enqueue(handoff());
    await until(() => r.received.length === 1);
    expect(r.received[0]?.status).toBe(401);
  });

  it('rotation: the list signs with every secret, the first first; receivers on the old or the new secret both accept', async () => {
    const onOld = await receiver([OLD_SECRET]);
    const onNew = await receiver([NEW_SECRET]);
    const a = await service(onOld.url, [NEW_SECRET, OLD_SECRET]);
    const b = await service(onNew.url, [NEW_SECRET, OLD_SECRET]);
    await a.outbox.enqueue(handoff());
    await b.outbox.enqueue(handoff());
    await until(() => onOld.received.length === 1 && onNew.received.length === 1);
    expect([onOld.received[0]?.status, onNew.received[0]?.status]).toEqual([202, 202]);
    const got = onOld.received[0]!;
    const t = SIGNATURE.exec(got.signature ?? '')?.[1];
    const mac = (secret: string) => createHmac('sha256', secret).update(`${t}.${got.body}`).digest('hex');
    expect(got.signature).toBe(`t=${t},v1=${mac(NEW_SECRET)},v1=${mac(OLD_SECRET)}`);
  });

  it('rotation: once the old secret is dropped from the receiver, a service still signing with it alone is refused', async () => {
    const r = await receiver([NEW_SECRET]);
    const { outbox } = await service(r.url, [OLD_SECRET]);
    await outbox.enqueue(handoff());
    await until(() => r.received.length === 1);
    expect(r.received[0]?.status).toBe(401);
  });

  it('a retry carries a fresh timestamp and signature over the same body', async () => {
    const r = await receiver([NEW_SECRET], [503]);
    let calls = 0;
    // Each attempt reads the clock once: the second attempt is a minute later.
    const clock = () => Date.now() + 60_000 * calls++;
    const { outbox } = await service(r.url, [NEW_SECRET], clock);
    await outbox.enqueue(handoff());
    await until(() => r.received.length === 2);
    const [first, second] = r.received;
    expect([first?.status, second?.status]).toEqual([503, 202]);
    expect(second?.body).toBe(first?.body);
    const t = (x: typeof first) => Number(SIGNATURE.exec(x?.signature ?? '')?.[1]);
    expect(t(second) - t(first)).toBeGreaterThanOrEqual(59);
    expect(second?.signature).not.toBe(first?.signature);
  });

  it('without HANDOFF_SIGNING_SECRET no signature header is sent', async () => {
    const r = await receiver([]);
    const { outbox } = await service(r.url, []);
    await outbox.enqueue(handoff());
    await until(() => r.received.length === 1);
    expect(r.received[0]?.signature).toBeUndefined();
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

  it('signs every attempt the same way: a 503 then a fresh, valid signature over the same body', async () => {
    const r = await receiver([NEW_SECRET], [503]);
    let calls = 0;
    const clock = () => Date.now() + 60_000 * calls++;
    const { outbox } = await service(r.url, [NEW_SECRET], clock, redis.url);
    const h = handoff();
    await outbox.enqueue(h);
    await until(() => r.received.length === 2, 10_000);
    const [first, second] = r.received;
    expect([first?.status, second?.status]).toEqual([503, 202]);
    expect(JSON.parse(second?.body ?? '{}')).toEqual(h);
    expect(second?.body).toBe(first?.body);
    expect(second?.signature).not.toBe(first?.signature);
  });
});
