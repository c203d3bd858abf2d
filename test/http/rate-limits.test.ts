import { describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { chatRequest, newSessionId } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

/** docs/api.md#rate-limits in process: 3 chats a minute per session, 5 per organisation. */
const harness = useStubbedService({ RATE_LIMIT_SESSION_PER_MIN: '3', RATE_LIMIT_ORG_PER_MIN: '5' });

let nextOrg = 1_000_000_000_000_000_000n;
/** An organisation no other test used: its counters start at zero. */
const newOrg = () => String((nextOrg += 1n));

function expectHeaders(res: LightMyRequestResponse, limit: number, remaining: number) {
  expect(res.headers['ratelimit-limit']).toBe(String(limit));
  expect(res.headers['ratelimit-remaining']).toBe(String(remaining));
  expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
  // The plugin's default names (an older draft) never go out.
  expect(Object.keys(res.headers).filter((h) => h.startsWith('x-ratelimit'))).toEqual([]);
}

/** Asserts the exact 429 of docs/api.md#rate-limits, and that nobody was called for it. */
async function expect429(send: () => Promise<LightMyRequestResponse>, limit: number) {
  const stubs = Object.values(harness.svc.stubs);
  const before = stubs.map((s) => s.requests.length);
  const res = await send();
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ detail: 'Too Many Requests' });
  expectHeaders(res, limit, 0);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
  expect(res.headers['retry-after']).toBe(res.headers['ratelimit-reset']);
  expect(stubs.map((s) => s.requests.length)).toEqual(before);
}

describe('per session', () => {
  it('answers 3 chats of a session in a minute, then 429, while other sessions go on', async () => {
    const orgId = newOrg();
    const session = chatRequest({ orgId });
    for (const remaining of [2, 1, 0]) {
      const res = await harness.chat({ ...session, message: `question ${remaining}` });
      expect(res.statusCode).toBe(200);
      expectHeaders(res, 3, remaining);
    }
    await expect429(() => harness.chat(session), 3);
    await expect429(() => harness.chat(session), 3);
    // Refused chats of one session do not eat the organisation's allowance (5): this is its 4th.
    expect((await harness.chat(chatRequest({ orgId }))).statusCode).toBe(200);
    // The session is (orgId, propertyId, session_id): the same session id elsewhere is another session.
    expect((await harness.chat({ ...session, propertyId: '5555555555555555555' })).statusCode).toBe(200);
    expect((await harness.chat({ ...session, orgId: newOrg() })).statusCode).toBe(200);
  });

  it('does not count a request refused before it (a body that fails the schema)', async () => {
    const session = chatRequest({ orgId: newOrg() });
    for (let i = 0; i < 5; i += 1) expect((await harness.chat({ ...session, tourScheduleEnabled: 'yes' })).statusCode).toBe(400);
    expect((await harness.chat(session)).statusCode).toBe(200);
  });
});

describe('with an Idempotency-Key', () => {
  it('a replayed answer is not counted, and a chat refused by a limit gives its key back', async () => {
    const session = chatRequest({ orgId: newOrg() });
    const first = await harness.chat(session, { 'idempotency-key': 'order-1' });
    expect(first.statusCode).toBe(200);
    // Replays answer from the kept answer: nothing is counted, whatever their number.
    for (let i = 0; i < 4; i += 1) {
      const replay = await harness.chat(session, { 'idempotency-key': 'order-1' });
      expect(replay.statusCode).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
    }
    // The session's 2nd and 3rd chats are still allowed (limit 3): the replays took nothing.
    for (const key of ['order-2', 'order-3']) expect((await harness.chat({ ...session, message: key }, { 'idempotency-key': key })).statusCode).toBe(200);
    const refused = { ...session, message: 'one too many' };
    await expect429(() => harness.chat(refused, { 'idempotency-key': 'order-4' }), 3);
    // The refused chat's key was given back: the same request is refused again (429), not 409 "in flight".
    await expect429(() => harness.chat(refused, { 'idempotency-key': 'order-4' }), 3);
  });
});

describe('per organisation', () => {
  it('answers 5 chats of an organisation in a minute across sessions, then 429, while other organisations go on', async () => {
    const orgId = newOrg();
    for (let i = 0; i < 5; i += 1) {
      const res = await harness.chat(chatRequest({ orgId, session_id: newSessionId() }));
      expect(res.statusCode).toBe(200);
      // The headers tell the limit closest to running out: the organisation's once it is.
      if (i >= 3) expectHeaders(res, 5, 4 - i);
    }
    await expect429(() => harness.chat(chatRequest({ orgId, session_id: newSessionId() })), 5);
    expect((await harness.chat(chatRequest({ orgId: newOrg() }))).statusCode).toBe(200);
  });
});

describe('GET routes', () => {
  it('are never limited', async () => {
    for (let i = 0; i < 10; i += 1) {
      const res = await harness.svc.app.inject({ method: 'GET', url: '/heartbeat' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
  });
});
