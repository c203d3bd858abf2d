/**
 * docs/browser-widgets.md in Chromium: a chat widget served from a second origin (its own loopback
 * server) chats with the service directly, with a publishable key and no proxy: the preflight passes,
 * a JSON and a streamed reply arrive, and the page can read the exposed headers (the trace id among
 * them). The same page from an origin the key does not list gets 401; from an origin CORS_ORIGINS
 * does not list, the browser itself blocks the answer.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openPage, type WatchedPage } from './chromium.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

const WIDGET_DIR = join(import.meta.dirname, 'widget');
const KEY = 'pk_test_leasing_widget_b81f0c';
const TRACE_RESPONSE = /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/;

/** A static server for the widget's two files, on a loopback port of its own: the widget's origin. */
async function widgetOrigin(): Promise<{ origin: string; server: Server }> {
  const files: Record<string, [string, string]> = {
    '/widget.html': ['text/html; charset=utf-8', readFileSync(join(WIDGET_DIR, 'widget.html'), 'utf8')],
    '/widget.js': ['text/javascript; charset=utf-8', readFileSync(join(WIDGET_DIR, 'widget.js'), 'utf8')],
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://x').pathname];
    if (file === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Served as localhost: another host and port than the service's 127.0.0.1.
  return { origin: `http://localhost:${(server.address() as AddressInfo).port}`, server };
}

let service: ServiceProcess;
let browser: Browser;
const sites: { origin: string; server: Server }[] = [];
let keyed: string;
let corsOnly: string;
let unlisted: string;

beforeAll(async () => {
  for (let i = 0; i < 3; i++) sites.push(await widgetOrigin());
  [keyed, corsOnly, unlisted] = sites.map((s) => s.origin) as [string, string, string];
  service = await startServiceProcess({
    CORS_ORIGINS: `${keyed},${corsOnly}`,
    PUBLISHABLE_KEYS: JSON.stringify([{ name: 'leasing-widget', key: KEY, origins: [keyed], orgId: '9876543210987654321', propertyIds: ['1234567890123456789'] }]),
    CALLER_API_KEYS: 'backend:backend-SECRET-key-0123456789',
    RATE_LIMIT_SESSION_PER_MIN: '0',
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  for (const site of sites) await new Promise<void>((resolve) => site.server.close(() => resolve()));
});

async function openWidget(origin: string): Promise<{ watched: WatchedPage; page: Page }> {
  const watched = await openPage(browser, 1280);
  const { page } = watched;
  await page.goto(`${origin}/widget.html?service=${encodeURIComponent(service.url)}&key=${encodeURIComponent(KEY)}`);
  await expect.poll(() => page.textContent('#status')).toBe('ready');
  return { watched, page };
}

type Seen = Record<string, unknown> & { status?: number; traceresponse?: string | null; body?: Record<string, unknown>; answer?: Record<string, unknown>; text?: string };
const send = (page: Page, message: string, stream: boolean) =>
  page.evaluate(`window.widget.send(${JSON.stringify(message)}, { stream: ${stream} })`) as Promise<Seen>;

describe('a widget on its own origin with a publishable key', () => {
  it('chats with the service directly: a JSON reply and a streamed one, the trace id readable by the page', async () => {
    const { watched, page } = await openWidget(keyed);
    const chats: { method: string; url: string }[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(service.url)) chats.push({ method: request.method(), url: request.url() });
    });

    const json = await send(page, 'What are your office hours?', false);
    expect(json.status).toBe(200);
    expect(typeof json.body?.['response']).toBe('string');
    expect(json.traceresponse).toMatch(TRACE_RESPONSE);
    expect(json.traceresponse).toContain(String(json.body?.['trace_id']));
    expect(json['serverTiming']).toMatch(/askEngine/);

    const streamed = await send(page, 'Do you allow pets?', true);
    expect(streamed.status).toBe(200);
    expect(streamed['contentType']).toBe('text/event-stream');
    expect(streamed.text).toBe(streamed.answer?.['response']);
    expect(streamed.traceresponse).toContain(String(streamed.answer?.['trace_id']));

    expect(await page.locator('#transcript li.assistant').count()).toBe(2);
    // Straight to the service, no proxy: every chat request went to the service's own origin.
    expect(chats.filter((c) => c.method === 'POST')).toHaveLength(2);
    expect(new URL(service.url).origin).not.toBe(keyed);
    expect(watched.errors).toEqual([]);
    await page.context().close();
  });

  it('from an origin CORS allows but the key does not list: the page gets the 401', async () => {
    const { page } = await openWidget(corsOnly);
    const seen = await send(page, 'Hello?', false);
    expect(seen.status).toBe(401);
    expect(seen.body).toEqual({ detail: 'Unauthorized' });
    expect(seen.traceresponse).toMatch(TRACE_RESPONSE);
    await page.context().close();
  });

  it('from an origin CORS_ORIGINS does not list: the browser blocks the answer', async () => {
    const { watched, page } = await openWidget(unlisted);
    const seen = await send(page, 'Hello?', false);
    expect(seen['blocked']).toBe(true);
    expect(await page.textContent('#status')).toBe('blocked');
    expect(watched.errors.join('\n')).toMatch(/CORS/);
    await page.context().close();
  });
});
