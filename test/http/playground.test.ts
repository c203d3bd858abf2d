/** `GET /playground`: served with PLAYGROUND=true (and in local), absent otherwise, all from this service. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAYGROUND_DIR } from '../../src/http/playground.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

describe('with PLAYGROUND=true', () => {
  const harness = useStubbedService({ PLAYGROUND: 'true' });
  const get = (url: string) => harness.svc.app.inject({ method: 'GET', url });

  it('redirects /playground to the page, which loads only its own files from this service', async () => {
    const redirect = await get('/playground');
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/playground/');
    const page = await get('/playground/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    // data: URLs (the empty favicon) are inline, not loaded from anywhere.
    const assets = [...page.body.matchAll(/(?:src|href)="([^"#]+)"/g)].map((m) => m[1]!).filter((url) => !url.startsWith('data:'));
    expect(assets).toEqual(expect.arrayContaining(['/playground/playground.css', '/playground/playground.js']));
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      expect((await get(asset)).statusCode, asset).toBe(200);
    }
  });

  it('serves every module the page script imports, and theirs, as JavaScript', async () => {
    const seen = new Set<string>();
    const pending = ['playground.js'];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (seen.has(name)) continue;
      seen.add(name);
      const res = await get(`/playground/${name}`);
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.body).toBe(readFileSync(join(PLAYGROUND_DIR, name), 'utf8'));
      pending.push(...[...res.body.matchAll(/from '\.\/([\w-]+\.js)'/g)].map((m) => m[1]!));
    }
    expect([...seen].sort()).toEqual(['chat-client.js', 'markdown.js', 'playground.js', 'progress.js', 'render-answer.js', 'stream.js', 'transcript.js', 'waterfall.js']);
  });

  it('does not serve the type declarations, nor anything outside its folder', async () => {
    for (const url of ['/playground/markdown.d.ts', '/playground/../playground.ts', '/playground/%2e%2e/app.ts']) {
      expect((await get(url)).statusCode, url).toBe(404);
    }
  });

  it('stays out of the API document', async () => {
    const doc = (await get('/openapi.json')).json();
    expect(Object.keys(doc.paths).some((path) => path.startsWith('/playground'))).toBe(false);
  });
});

describe('without PLAYGROUND outside local', () => {
  const harness = useStubbedService();
  it('is not served', async () => {
    expect((await harness.svc.app.inject({ method: 'GET', url: '/playground/' })).statusCode).toBe(404);
  });
});
