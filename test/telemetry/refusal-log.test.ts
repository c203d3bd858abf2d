/**
 * Refusals (401, 403, 422, 429, 503) reach a `warn` level log as `request refused` with their
 * reason and trace id, at most one line per status and reason every 10 s (docs/observability.md#logs).
 */
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusalLogger } from '../../src/http/refusal-log.ts';
import { chatRequest } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';

type Line = Record<string, unknown>;

function fakeRequest(lines: Line[], reason: string | undefined, errorLogged = false): FastifyRequest {
  const log = { warn: (fields: Line, msg: string) => lines.push({ ...fields, msg }) };
  return { method: 'POST', refusalReason: reason, errorLogged, log } as unknown as FastifyRequest;
}

describe('the refusal line, rate-limited', () => {
  it('writes one line per status and reason per interval, then says how many it left out', () => {
    let now = 1_000;
    const lines: Line[] = [];
    const refused = refusalLogger(10_000, () => now);
    for (let i = 0; i < 5; i++) refused(fakeRequest(lines, 'Too Many Requests'), 429, '/chat_adapter');
    refused(fakeRequest(lines, 'Unauthorized'), 401, '/chat_adapter');
    expect(lines.map((l) => [l['status'], l['suppressed']])).toEqual([
      [429, 0],
      [401, 0],
    ]);
    now += 10_000;
    refused(fakeRequest(lines, 'Too Many Requests'), 429, '/x/chat_adapter');
    expect(lines[2]).toMatchObject({ msg: 'request refused', status: 429, reason: 'Too Many Requests', route: '/x/chat_adapter', suppressed: 4 });
  });

  it('leaves out answers that are not refusals, and failures the error handler already logged', () => {
    const lines: Line[] = [];
    const refused = refusalLogger(10_000, () => 0);
    for (const status of [200, 400, 404, 409, 500]) refused(fakeRequest(lines, 'x'), status, '/chat_adapter');
    refused(fakeRequest(lines, 'engine unavailable', true), 503, '/chat_adapter');
    expect(lines).toEqual([]);
  });
});

describe('refusals of a running service', () => {
  let svc: StubbedService;
  beforeAll(async () => {
    svc = await startStubbedService({ CALLER_API_KEYS: 'web:sk_web_0123456789abcdef', LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await svc.close();
  });
  const lines = () => svc.logs.map((l) => JSON.parse(l) as Line);

  it('logs a 401 at warn with its reason and trace id, once for a burst', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() })).statusCode).toBe(401);
    }
    const refused = lines().filter((l) => l['msg'] === 'request refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ level: 40, status: 401, reason: 'Unauthorized', route: '/chat_adapter' });
    expect(refused[0]!['trace_id']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('logs a party failure once, as that failure, not again as a refusal', async () => {
    svc.stubs.engine.handle((_req, res) => sendJson(res, 503, {}));
    const before = svc.logs.length;
    const res = await svc.app.inject({
      method: 'POST',
      url: '/chat_adapter',
      headers: { authorization: 'Bearer sk_web_0123456789abcdef' },
      payload: chatRequest(),
    });
    expect(res.statusCode).toBe(503);
    const written = svc.logs.slice(before).map((l) => JSON.parse(l) as Line);
    expect(written.map((l) => l['msg'])).toEqual(['engine unavailable']);
  });
});
