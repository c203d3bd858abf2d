import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { checkSignature } from '../../src/local/handoff/signature-check.ts';
import { createDeliveryKeys } from '../../src/local/handoff/delivery-keys.ts';
import { buildHandoffApp } from '../../src/local/handoff/handoff-server.ts';
import { openDatabase } from '../../src/local/store/database.ts';
import { createConversationStore } from '../../src/local/store/conversation-store.ts';
import { handoff } from './outbox-contract.ts';

const secret = (seed: string) => `whsec_${Buffer.from(seed.padEnd(32, '.')).toString('base64')}`;
const SECRET = secret('the local stack secret');
const apps: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of apps.splice(0)) await close();
});

/** The local stack's receiver on a real SQLite file, knowing the service's secrets. */
async function localReceiver(secrets: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'local-handoff-'));
  const db = openDatabase(dir);
  const app = buildHandoffApp(createConversationStore(db), createDeliveryKeys(db), { signingSecrets: secrets });
  await app.ready();
  apps.push(async () => {
    await app.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return app;
}

type Signed = Readonly<Record<string, string>>;

/** The Standard Webhooks headers of `body`, made by the `standardwebhooks` package's own signer. */
function sign(secretText: string, body: string, at = Date.now(), id = 'hnd_1'): Signed {
  const date = new Date(Math.floor(at / 1000) * 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at / 1000)), 'webhook-signature': new Webhook(secretText).sign(id, date, body) };
}

function post(app: Awaited<ReturnType<typeof localReceiver>>, body: string, signed: Signed = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...signed };
  return app.inject({ method: 'POST', url: '/handoff', headers, payload: body });
}

describe('the local stack handoff receiver verifies Standard Webhooks signatures when it knows the secret (docs/handoff-receivers.md)', () => {
  const body = JSON.stringify(handoff());

  it('accepts a fresh delivery signed with its secret, and records a re-delivery of the same webhook-id once', async () => {
    const app = await localReceiver([SECRET]);
    const first = await post(app, body, sign(SECRET, body));
    expect(first.statusCode).toBe(202);
    expect(first.json().duplicate).toBe(false);
    const again = await post(app, body, sign(SECRET, body, Date.now() + 1_000));
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({ duplicate: true, id: first.json().id });
  });

  it('refuses an unsigned delivery, a wrong secret and a stale timestamp with 401, a malformed header with 400', async () => {
    const app = await localReceiver([SECRET]);
    expect((await post(app, body)).statusCode).toBe(401);
    expect((await post(app, body, sign(secret('not the right one'), body))).statusCode).toBe(401);
    const stale = await post(app, body, sign(SECRET, body, Date.now() - 301_000));
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toEqual({ detail: 'webhook-timestamp too old or too new' });
    expect((await post(app, body, { ...sign(SECRET, body), 'webhook-timestamp': 'soon' })).statusCode).toBe(400);
  });

  it('refuses a valid signature over a different body or a different id', async () => {
    const app = await localReceiver([SECRET]);
    const changed = JSON.stringify({ ...handoff(), message: 'something else' });
    expect((await post(app, changed, sign(SECRET, body))).statusCode).toBe(401);
    expect((await post(app, body, { ...sign(SECRET, body), 'webhook-id': 'hnd_2' })).statusCode).toBe(401);
  });

  it('accepts any listed secret during a rotation', async () => {
    const app = await localReceiver([secret('the newer local secret'), SECRET]);
    expect((await post(app, body, sign(SECRET, body))).statusCode).toBe(202);
  });

  it('accepts unsigned deliveries when it knows no secret, and still rejects a body that is not JSON', async () => {
    const app = await localReceiver([]);
    expect((await post(app, body)).statusCode).toBe(202);
    expect((await post(app, '{"handoff_id": ')).statusCode).toBe(400);
  });
});

describe('the hand-written verifier agrees with the standardwebhooks package', () => {
  const library = (secretText: string, body: string, headers: Signed): boolean => {
    try {
      new Webhook(secretText).verify(body, { ...headers }, { jsonParse: false });
      return true;
    } catch (err) {
      if (err instanceof WebhookVerificationError) return false;
      throw err;
    }
  };

  it('on genuine deliveries, changed bodies, changed ids and shifted timestamps', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 24, maxLength: 64 }),
        fc.string({ minLength: 1, maxLength: 200 }),
        fc.stringMatching(/^[\x21-\x7e]{1,40}$/),
        fc.integer({ min: -400, max: 400 }),
        fc.constantFrom('none', 'body', 'id'),
        (key, body, id, skewS, change) => {
          const secretText = `whsec_${Buffer.from(key).toString('base64')}`;
          const now = Date.now();
          const headers = sign(secretText, body, now + skewS * 1000, id);
          const sentBody = change === 'body' ? `${body}!` : body;
          const sentHeaders = change === 'id' ? { ...headers, 'webhook-id': `${id}x` } : headers;
          const ours = checkSignature(
            { id: sentHeaders['webhook-id'], timestamp: sentHeaders['webhook-timestamp'], signature: sentHeaders['webhook-signature'] },
            sentBody, [secretText], now,
          ).ok;
          // Both use a 5-minute tolerance; a second either side of the edge is left out (the clocks are read apart).
          if (Math.abs(Math.abs(skewS) - 300) <= 1) return;
          expect(ours).toBe(library(secretText, sentBody, sentHeaders));
          expect(ours).toBe(change === 'none' && Math.abs(skewS) < 300);
        },
      ),
      { numRuns: 300 },
    );
  });
});
