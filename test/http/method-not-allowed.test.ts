/** A chat path asked with another method is told which method it takes (405 + Allow), not that it is missing. */
import { describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

const PREFIX = '/chat-adapter/v1';

describe('GET /chat_adapter and other methods than POST', () => {
  const harness = useStubbedService({ ROUTE_PREFIX: PREFIX });
  const inject = (method: 'GET' | 'HEAD' | 'PUT' | 'PATCH' | 'DELETE' | 'POST', url: string) => harness.svc.app.inject({ method, url });

  it.each(['GET', 'PUT', 'PATCH', 'DELETE'] as const)('%s answers 405 with Allow: POST in the detail shape, also under ROUTE_PREFIX', async (method) => {
    for (const url of ['/chat_adapter', `${PREFIX}/chat_adapter`]) {
      const res = await inject(method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(405);
      expect(res.headers['allow']).toBe('POST');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ detail: 'Method Not Allowed: /chat_adapter takes POST' });
    }
  });

  it('HEAD answers 405 with Allow: POST and no body', async () => {
    const res = await inject('HEAD', '/chat_adapter');
    expect(res.statusCode).toBe(405);
    expect(res.headers['allow']).toBe('POST');
    expect(res.body).toBe('');
  });

  it('leaves POST, unknown paths and the API document as they were', async () => {
    expect((await harness.chat(chatRequest())).statusCode).toBe(200);
    const unknown = await inject('GET', '/chat_adapters');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Not Found' });
    const doc = (await inject('GET', '/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/chat_adapter'] ?? {})).toEqual(['post']);
  });
});
