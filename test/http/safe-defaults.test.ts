/**
 * Safe defaults (docs/api.md#limits, docs/operations.md#metrics): `Referrer-Policy: no-referrer` on
 * every answer, and with caller keys set `/metrics` only for the admin key, or only on METRICS_PORT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';

const CALLER = 'web-KEY-aaaaaaaaaaaaaaaaaaaa';
const ADMIN = 'admin-KEY-bbbbbbbbbbbbbbbbbb';
const PREFIX = '/svc';

describe('with caller keys and an admin key', () => {
  let svc: StubbedService;
  beforeAll(async () => {
    svc = await startStubbedService({ CALLER_API_KEYS: `web:${CALLER}`, ADMIN_API_KEY: ADMIN, ROUTE_PREFIX: PREFIX });
  });
  afterAll(async () => {
    await svc?.close();
  });
  const get = (url: string, key?: string) => svc.app.inject({ method: 'GET', url, headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });

  it('sends Referrer-Policy: no-referrer on every answer: chats, streams, refusals, probes, unknown paths', async () => {
    const answers = [
      await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers: { authorization: `Bearer ${CALLER}` } }),
      await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers: { authorization: `Bearer ${CALLER}`, accept: 'text/event-stream' } }),
      await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() }),
      await get('/heartbeat'),
      await get('/nowhere'),
      await get('/metrics'),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 401, 200, 404, 401]);
    for (const res of answers) expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('serves /metrics to the admin key only (also under the route prefix)', async () => {
    for (const url of ['/metrics', `${PREFIX}/metrics`]) {
      const refused = await get(url);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ detail: 'Unauthorized' });
      expect(refused.headers['www-authenticate']).toBe('Bearer');
      expect((await get(url, CALLER)).statusCode).toBe(401);
      const scraped = await get(url, ADMIN);
      expect(scraped.statusCode).toBe(200);
      expect(scraped.body).toContain('chat_adapter_party_pool_in_use');
    }
    expect((await get('/heartbeat')).statusCode).toBe(200);
  });
});

describe('with publishable keys only', () => {
  it('serves /metrics to the admin key only, as with caller keys', async () => {
    const publishable = JSON.stringify([{ name: 'widget', key: 'pk_live_widget_0123456789ab', origins: ['https://leasing.example'], orgId: '9876543210987654321', propertyIds: ['1234567890123456789'] }]);
    const svc = await startStubbedService({ PUBLISHABLE_KEYS: publishable, ADMIN_API_KEY: ADMIN });
    try {
      expect((await svc.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      expect((await svc.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN}` } })).statusCode).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('with METRICS_PORT set', () => {
  it('does not serve /metrics on the service port at all', async () => {
    const svc = await startStubbedService({ METRICS_PORT: '9464' });
    try {
      const res = await svc.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not Found' });
    } finally {
      await svc.close();
    }
  });
});

describe('without caller keys or METRICS_PORT', () => {
  it('keeps /metrics open, as an unauthenticated service has nothing to hide it behind', async () => {
    const svc = await startStubbedService({});
    try {
      expect((await svc.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    } finally {
      await svc.close();
    }
  });
});
