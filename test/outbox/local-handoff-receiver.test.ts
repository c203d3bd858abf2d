import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandoffSigner } from '../../src/clients/handoff-signature.ts';
import { createDeliveryKeys } from '../../src/local/handoff/delivery-keys.ts';
import { buildHandoffApp } from '../../src/local/handoff/handoff-server.ts';
import { openDatabase } from '../../src/local/store/database.ts';
import { createConversationStore } from '../../src/local/store/conversation-store.ts';
import { handoff } from './outbox-contract.ts';

const SECRET = 'whsec_local_stack_3a9e0f17';
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

function post(app: Awaited<ReturnType<typeof localReceiver>>, body: string, signature?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': 'k-1' };
  if (signature !== undefined) headers['x-chat-adapter-signature'] = signature;
  return app.inject({ method: 'POST', url: '/handoff', headers, payload: body });
}

describe('the local stack handoff receiver checks signatures when it knows the secret (docs/contracts.md#handoff-receiver)', () => {
  const body = JSON.stringify(handoff());
  const sign = (secret: string, at = Date.now()) => createHandoffSigner([secret])!.sign(body, at);

  it('accepts a fresh delivery signed with its secret', async () => {
    const res = await post(await localReceiver([SECRET]), body, sign(SECRET));
    expect(res.statusCode).toBe(202);
  });

  it('refuses an unsigned delivery, a wrong secret and a stale timestamp with 401, a malformed header with 400', async () => {
    const app = await localReceiver([SECRET]);
    expect((await post(app, body)).statusCode).toBe(401);
    expect((await post(app, body, sign('whsec_not_the_right_one'))).statusCode).toBe(401);
    const stale = await post(app, body, sign(SECRET, Date.now() - 301_000));
    expect(stale.statusCode).toBe(401);
    expect(stale.json()).toEqual({ detail: 'stale X-Chat-Adapter-Signature' });
    expect((await post(app, body, 't=abc,v1=zz')).statusCode).toBe(400);
  });

  it('refuses a valid signature over a different body (the body was changed on the way)', async () => {
    const app = await localReceiver([SECRET]);
    const changed = JSON.stringify({ ...handoff(), message: 'something else' });
    expect((await post(app, changed, sign(SECRET))).statusCode).toBe(401);
  });

  it('accepts any listed secret during a rotation', async () => {
    const app = await localReceiver(['whsec_new_local_7c1d22aa', SECRET]);
    expect((await post(app, body, sign(SECRET))).statusCode).toBe(202);
  });

  it('accepts unsigned deliveries when it knows no secret, and still rejects a body that is not JSON', async () => {
    const app = await localReceiver([]);
    expect((await post(app, body)).statusCode).toBe(202);
    expect((await post(app, '{"handoff_id": ')).statusCode).toBe(400);
  });
});
