/** `GET /docs`: titled for this service, and its "Try it out" interceptor (run here as the page runs it). */
import { describe, expect, it } from 'vitest';
import { DOCS_PAGE } from '../../src/http/docs-page.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The interceptor as the browser gets it: from its source text, with nothing of this module in scope. */
function interceptorFromSource(): (request: Record<string, unknown>) => Record<string, unknown> {
  const source = String(DOCS_PAGE.uiConfig?.requestInterceptor);
  return new Function(`return (${source});`)() as (request: Record<string, unknown>) => Record<string, unknown>;
}

describe('the reference page', () => {
  const harness = useStubbedService();

  it('is titled for this service and loads its own logo, favicon and styles', async () => {
    const page = await harness.svc.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.body).toContain('<title>Chat adapter · API reference</title>');
    expect(page.body).not.toContain('<title>Swagger UI</title>');
    expect(page.body).toMatch(/href="[^"]*theme\/favicon\.svg"/);
    const css = await harness.svc.app.inject({ method: 'GET', url: '/docs/static/theme/chat-adapter.css' });
    expect(css.statusCode).toBe(200);
    expect(css.body).toContain('.download-url-wrapper { display: none; }');
    const init = await harness.svc.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    expect(init.body).toContain('"requestInterceptor":function freshIdempotencyKey(');
    expect(init.body).toContain(Buffer.from('Chat adapter').toString('base64').slice(0, 12));
  });

  it('has a viewport tag, once, so a phone lays it out at its own width', async () => {
    const pages = [];
    for (const url of ['/docs', '/docs/', '/docs/static/index.html']) {
      const page = await harness.svc.app.inject({ method: 'GET', url });
      if (page.statusCode !== 200) continue; // /docs may redirect to /docs/
      pages.push(url);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body.match(/<meta name="viewport" content="width=device-width, initial-scale=1">/g), url).toHaveLength(1);
    }
    expect(pages).toContain('/docs/');
    const css = await harness.svc.app.inject({ method: 'GET', url: '/docs/static/theme/chat-adapter.css' });
    expect(css.body).not.toContain('viewport');
  });

  it('documents the Idempotency-Key header without an example value, which "Try it out" would send each time', async () => {
    const doc = (await harness.svc.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const header = doc.paths['/chat_adapter'].post.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key');
    expect(header.example).toBeUndefined();
    expect(header.schema.examples).toBeUndefined();
    expect(header.description).toContain('"Try it out" with the field left empty sends a new key each time');
  });
});

describe('the "Try it out" interceptor', () => {
  const intercept = interceptorFromSource();

  it('gives each chat sent without a key a new UUID v4', () => {
    const sent = [1, 2, 3].map(() => intercept({ method: 'POST', url: 'http://127.0.0.1:6080/chat_adapter', headers: { 'Content-Type': 'application/json' } }));
    const keys = sent.map((r) => (r['headers'] as Record<string, string>)['Idempotency-Key']);
    for (const key of keys) expect(key).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(3);
    // An empty field is no key.
    const empty = intercept({ method: 'post', url: '/chat-adapter/v1/chat_adapter', headers: { 'Idempotency-Key': '' } });
    expect((empty['headers'] as Record<string, string>)['Idempotency-Key']).toMatch(UUID_V4);
  });

  it('sends a key typed in the field as it is, and leaves every other request alone', () => {
    const typed = intercept({ method: 'POST', url: '/chat_adapter', headers: { 'idempotency-key': 'mine' } });
    expect(typed['headers']).toEqual({ 'idempotency-key': 'mine' });
    for (const request of [
      { method: 'GET', url: '/docs/json', headers: {} },
      { method: 'POST', url: '/chat_adapter_other', headers: {} },
      { method: 'GET', url: '/heartbeat', headers: {} },
    ]) {
      expect(intercept(structuredClone(request))).toEqual(request);
    }
  });
});
