import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, useStubbedService } from '../helpers/stubbed-service.ts';
import { waitFor } from '../outbox/outbox-contract.ts';

const ADMIN_KEY = 'admin-KEY-for-route-tests-42';
const harness = useStubbedService({ ADMIN_API_KEY: ADMIN_KEY });
const call = (method: 'GET' | 'POST', url: string, headers: Record<string, string> = { authorization: `Bearer ${ADMIN_KEY}` }) =>
  harness.svc.app.inject({ method, url, headers });

describe('admin routes without ADMIN_API_KEY', () => {
  const plain = useStubbedService();
  it('are not served: 404 like any unknown path', async () => {
    for (const [method, url] of [['GET', '/admin/handoffs?status=dead'], ['POST', `/admin/handoffs/${randomUUID()}/retry`]] as const) {
      const res = await plain.svc.app.inject({ method, url, headers: { authorization: 'Bearer anything-at-all-000' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    }
  });
});

describe('admin authentication (docs/api.md#caller-keys)', () => {
  it.each([
    ['no Authorization header', {}],
    ['a wrong key', { authorization: 'Bearer admin-KEY-for-route-tests-43' }],
    ['the key with another scheme', { authorization: `Basic ${ADMIN_KEY}` }],
    ['the key without a scheme', { authorization: ADMIN_KEY }],
  ])('refuses %s with 401 and WWW-Authenticate: Bearer', async (_what, headers: Record<string, string>) => {
    for (const [method, url] of [['GET', '/admin/handoffs'], ['POST', `/admin/handoffs/${randomUUID()}/retry`]] as const) {
      const res = await call(method, url, headers);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toEqual({ detail: 'Unauthorized' });
    }
  });

  it('never writes the key to a log line', () => {
    expect(harness.svc.logs.join('')).not.toContain(ADMIN_KEY);
  });
});

describe('GET /admin/handoffs', () => {
  it('lists dead letters by default, and pending handoffs with status=pending, without message or contact', async () => {
    const empty = await call('GET', '/admin/handoffs');
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ status: 'dead', handoffs: [] });

    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ sub_intent: 'agent_hand_off' })));
    harness.svc.stubs.handoff.handle((_req, res) => sendJson(res, 503, {}));
    try {
      const chat = await harness.chat(chatRequest({ message: 'A person please, I am Rosa Vidal, rosa@example.com' }));
      expect(chat.statusCode).toBe(200);
      const pending = await waitFor(async () => {
        const res = await call('GET', '/admin/handoffs?status=pending&limit=10');
        return res.json().handoffs[0]?.last_error === 'status_503' ? res : undefined;
      }, 5_000, 'a failed attempt');
      expect(pending.json().status).toBe('pending');
      expect(pending.body).not.toMatch(/Rosa|Vidal|rosa@/);
      const [entry] = pending.json().handoffs;
      expect(['pending', 'delivering']).toContain(entry.status);

      const retry = await call('POST', `/admin/handoffs/${entry.handoff_id}/retry`);
      expect(retry.statusCode).toBe(409);
      expect(retry.json().detail).toMatch(/not dead-lettered/);
    } finally {
      harness.svc.stubs.handoff.handle((_req, res) => sendJson(res, 202, {}));
      harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    }
  });

  it.each(['status=delivered', 'status=', 'limit=0', 'limit=1001', 'limit=ten'])('answers 400 to %s', async (query) => {
    const res = await call('GET', `/admin/handoffs?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail.message).toMatch(/status|limit/);
  });
});

describe('POST /admin/handoffs/{handoff_id}/retry', () => {
  it('answers 404 for a handoff it does not know, and 400 for an id that is not a UUID', async () => {
    const unknown = await call('POST', `/admin/handoffs/${randomUUID()}/retry`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Handoff not found' });
    expect((await call('POST', '/admin/handoffs/not-a-uuid/retry')).statusCode).toBe(400);
  });
});

describe('an outbox that cannot be read', () => {
  it('answers 503 "handoff outbox unavailable"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-adapter-admin-'));
    writeFileSync(join(dir, 'file'), '');
    const svc = await startStubbedService({ ADMIN_API_KEY: ADMIN_KEY, DATA_DIR: join(dir, 'file') });
    try {
      const res = await svc.app.inject({ method: 'GET', url: '/admin/handoffs', headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ detail: 'handoff outbox unavailable' });
    } finally {
      await svc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
