/**
 * The API reference page (`/docs`) in Chromium, opened at the browser-safe port: titled and branded
 * for this service, everything loaded from the service, and "Try it out" on the chat working twice
 * in a row with an edited message (each run sends a new Idempotency-Key; a fixed one made the
 * second run a 422).
 */
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.ts';
import { ARTIFACTS, launchChromium, openPage, type WatchedPage } from './chromium.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

let service: ServiceProcess;
let browser: Browser;
let watched: WatchedPage;
let page: Page;
let origin: string;

beforeAll(async () => {
  service = await startServiceProcess({ PLAYGROUND_PORT: String(await freePort()) });
  origin = service.browserUrl!;
  browser = await launchChromium();
  watched = await openPage(browser, 1280);
  page = watched.page;
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** Runs "Try it out" with `message` in the example body; the request the page sent and its status. */
async function tryItOut(message: string): Promise<{ request: Request; status: number }> {
  const chat = page.locator('#operations-chat-post_chat_adapter');
  const body = chat.locator('textarea.body-param__text');
  const example = JSON.parse(await body.inputValue()) as Record<string, unknown>;
  await body.fill(JSON.stringify({ ...example, message }, null, 2));
  const [response] = await Promise.all([page.waitForResponse((r) => r.url() === `${origin}/chat_adapter`), chat.locator('button.execute').click()]);
  const shown = chat.locator('.live-responses-table tbody .response-col_status').first();
  await expect.poll(() => shown.innerText()).toContain(String(response.status()));
  return { request: response.request(), status: response.status() };
}

describe('the reference page in Chromium', () => {
  it('is titled and branded for this service, not stock "Swagger UI" with the fastify logo', async () => {
    await page.goto(`${origin}/docs`);
    await page.locator('#operations-chat-post_chat_adapter').waitFor();
    expect(await page.title()).toBe('Chat adapter · API reference');
    const logo = page.locator('.topbar-wrapper img');
    await logo.waitFor();
    const src = (await logo.getAttribute('src')) ?? '';
    expect(src.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(Buffer.from(src.split(',')[1]!, 'base64').toString()).toContain('Chat adapter');
    expect(await page.getAttribute('link[rel="icon"]', 'href')).toMatch(/favicon\.svg$/);
    expect(await page.locator('.topbar .download-url-wrapper').isVisible()).toBe(false);
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: false });
  });

  it('"Try it out" works twice in a row with an edited message, each run with a new Idempotency-Key', async () => {
    const chat = page.locator('#operations-chat-post_chat_adapter');
    await chat.locator('.opblock-summary').click();
    const keyField = chat.locator('tr[data-param-name="Idempotency-Key"] input');
    expect(await keyField.inputValue()).toBe('');

    const first = await tryItOut('Do you have any 2 bedroom apartments available?');
    const second = await tryItOut('What are your office hours?');
    expect([first.status, second.status]).toEqual([200, 200]);
    const keys = [first.request.headers()['idempotency-key'], second.request.headers()['idempotency-key']];
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[0]).not.toBe(keys[1]);

    // A key typed into the field is sent as it is: the same request again is a replay.
    await keyField.fill('docs-page-replay-check');
    const typed = await tryItOut('What are your office hours?');
    const replay = await tryItOut('What are your office hours?');
    expect(typed.request.headers()['idempotency-key']).toBe('docs-page-replay-check');
    expect([typed.status, replay.status]).toEqual([200, 200]);
    expect((await replay.request.response())?.headers()['idempotent-replayed']).toBe('true');

    await chat.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'docs-try-it-out.png'), fullPage: false });
  });

  it('loaded everything from the service and reported no error', () => {
    expect(watched.requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    expect(watched.errors).toEqual([]);
  });
});
