/**
 * The playground reloaded in the middle of a streamed reply (docs/api.md#resuming-a-streamed-reply),
 * in a real Chromium against the real service process and its embedded local stack: after the
 * reload the page asks for the reply in flight (`GET /chat_adapter/{conversation_id}/stream`) and
 * shows the whole reply once, with the question once and no duplicated message. Stop ends a reply
 * early and the page keeps what was shown.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.ts';
import { launchChromium, openPage, type WatchedPage } from './chromium.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

let service: ServiceProcess;
let browser: Browser;
let origin: string;
let watched: WatchedPage;
let page: Page;

const QUESTION = 'How much is the security deposit and the application fee?';

beforeAll(async () => {
  // Slow words, so that the reload lands while the reply is being written.
  service = await startServiceProcess({ PLAYGROUND_PORT: String(await freePort()), LOCAL_ENGINE_WORD_MS: '120' });
  origin = service.browserUrl!;
  browser = await launchChromium();
  watched = await openPage(browser, 1280);
  page = watched.page;
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** The visible text of every turn, in order, with its role. */
const turns = () =>
  page.locator('#transcript .turn').evaluateAll((all) => all.map((t) => ({ role: t.classList.contains('user') ? 'user' : 'assistant', text: (t.querySelector('.text')?.textContent ?? '').trim(), pending: t.classList.contains('pending') })));

describe('the playground reloaded mid-reply', () => {
  it('resumes the reply after the reload and shows it whole, once', async () => {
    await page.goto(`${origin}/playground`);
    await page.click('#new-session');
    await page.selectOption('#property', '1234567890123456789');
    await page.fill('#message', QUESTION);
    await page.click('#send');
    // Some text of the reply is on the page, not all of it.
    await page.locator('.turn.assistant.streaming .text').filter({ hasText: /\w+/ }).waitFor();
    const partial = await page.locator('.turn.assistant .text').last().textContent();

    const [resumed] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/stream') && r.request().method() === 'GET'),
      page.reload(),
    ]);
    expect(resumed.status()).toBe(200);
    expect(resumed.headers()['content-type']).toBe('text/event-stream');
    await page.locator('.turn.assistant:not(.pending)').last().waitFor({ timeout: 30_000 });
    await page.waitForFunction("document.querySelectorAll('.turn.pending').length === 0", undefined, { timeout: 30_000 });

    const shown = await turns();
    expect(shown.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(shown[0]!.text).toBe(QUESTION);
    const reply = shown[1]!.text.replace(/\s+/g, ' ');
    // The whole reply: longer than what was shown before the reload, and beginning with it.
    expect(reply.length).toBeGreaterThan(partial!.trim().length);
    expect(reply.startsWith(partial!.trim().replace(/\s+/g, ' ').slice(0, 20))).toBe(true);
    expect(await page.textContent('#retrieval-type')).toBe('rag');

    // Reloaded again once it is complete: the conversation as it was, nothing resumed again or doubled.
    await page.reload();
    await page.locator('#transcript .turn').nth(1).waitFor();
    await page.waitForTimeout(500);
    const again = await turns();
    expect(again.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(again[0]!.text).toBe(QUESTION);
    // The reply as the conversation keeps it (its `response`; the follow-up line is not part of it).
    const kept = again[1]!.text.replace(/\s+/g, ' ');
    expect(kept.length).toBeGreaterThan(partial!.trim().length);
    expect(reply.startsWith(kept)).toBe(true);
  }, 60_000);

  it('stops a reply with Stop and keeps the text that was shown', async () => {
    await page.click('#new-session');
    await page.fill('#message', QUESTION);
    await page.click('#send');
    await page.locator('.turn.assistant.streaming .text').filter({ hasText: /\w+/ }).waitFor();
    await page.locator('#stop').waitFor({ state: 'visible' });
    const [stop] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/stop')), page.click('#stop')]);
    expect(await stop.json()).toEqual({ stopped: true });
    await page.waitForFunction("document.querySelectorAll('.turn.pending').length === 0", undefined, { timeout: 30_000 });
    const shown = await turns();
    expect(shown.map((t) => t.role)).toEqual(['user', 'assistant']);
    expect(shown[1]!.text).toMatch(/\(stopped\)$/);
    expect(await page.locator('#stop').isHidden()).toBe(true);
  }, 60_000);

  it('reported no error in the page', () => {
    expect(watched.errors).toEqual([]);
  });
});
