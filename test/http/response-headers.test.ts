/** docs/api.md#limits: nosniff on every response, no-store on chat answers, every answer in the `detail` shape. */
import { connect } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, CALLER_API_KEY } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

const KEY = 'web-KEY-aaaaaaaaaaaaaaaaaaaa';
const harness = useStubbedService({ PLAYGROUND: 'true', CALLER_API_KEYS: `web:${KEY}` });
const get = (url: string) => harness.svc.app.inject({ method: 'GET', url });
const chat = (headers: Record<string, string | string[]>) =>
  harness.svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest({ graphql_api_key: CALLER_API_KEY }), headers });

describe('security headers', () => {
  it('sends X-Content-Type-Options: nosniff on every answer, and Cache-Control: no-store on chat answers', async () => {
    const answered = await chat({ authorization: `Bearer ${KEY}` });
    expect(answered.statusCode).toBe(200);
    expect(answered.headers['x-content-type-options']).toBe('nosniff');
    expect(answered.headers['cache-control']).toBe('no-store');
    const refused = await chat({});
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    expect(refused.headers['cache-control']).toBe('no-store');
    for (const url of ['/heartbeat', '/metrics', '/nowhere', '/playground/', '/playground/playground.js', '/docs/json']) {
      const res = await get(url);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
    // The page keeps its own content security policy.
    expect((await get('/playground/')).headers['content-security-policy']).toContain("script-src 'self'");
  });
});

/** The request line exactly as written (no client normalises the path): status line and body. */
function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n`));
    let out = '';
    socket.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ status: Number(out.split(' ')[1]), body: out.slice(out.indexOf('\r\n\r\n') + 4) }));
  });
}

describe('answers of the static playground route', () => {
  let port = 0;
  beforeAll(async () => {
    await harness.svc.app.listen({ port: 0, host: '127.0.0.1' });
    port = (harness.svc.app.server.address() as { port: number }).port;
  });

  it.each([
    '/playground/..%2f..%2fetc/passwd',
    '/playground/..%5c..%5cpackage.json',
    '/playground/%2e%2e/%2e%2e/package.json',
    '/playground/../../package.json',
    '/playground/..',
    '/playground/a%00b',
    '/playground/.env',
    '/playground/.git/config',
  ])('answers the probe %s in the detail shape, never 500, never logged with a stack', async (url) => {
    const before = harness.svc.logs.length;
    const res = await rawGet(port, url);
    expect([403, 404]).toContain(res.status);
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['detail']);
    expect(typeof body['detail']).toBe('string');
    expect(res.body).not.toContain('root:');
    const lines = harness.svc.logs.slice(before).join('');
    expect(lines).not.toContain('"stack"');
    expect(lines).not.toContain('"level":50');
  });
});

describe('the Authorization header', () => {
  it('refuses two Authorization headers, even when the first holds a good key', async () => {
    for (const authorization of [[`Bearer ${KEY}`, 'Bearer other-key'], [`Bearer ${KEY}`, `Bearer ${KEY}`], ['Bearer other-key', `Bearer ${KEY}`]]) {
      const res = await chat({ authorization });
      expect(res.statusCode, authorization.join(' | ')).toBe(401);
      expect(res.json()).toEqual({ detail: 'Unauthorized' });
    }
  });

  it('refuses a comma-joined Authorization header', async () => {
    for (const authorization of [`Bearer ${KEY}, Bearer other-key`, `Bearer ${KEY},Bearer ${KEY}`, `Bearer ${KEY},`]) {
      const res = await chat({ authorization });
      expect(res.statusCode, authorization).toBe(401);
    }
    expect((await chat({ authorization: `Bearer ${KEY}` })).statusCode).toBe(200);
  });
});
