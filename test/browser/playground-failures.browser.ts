/**
 * The playground in Chromium when a message gets no reply: the engine answering 503 (a stub in its
 * place, the rest of the local stack real), then the service itself stopped and started again. On
 * a phone (390 CSS pixels) and a laptop (1280): the message is marked "No reply" (the service took
 * it and failed while answering, streamed or as JSON alike) or "Not sent", with Retry, the explanation
 * says what happened in words (never "Failed to fetch") with the failed answer's trace id (from its
 * `traceresponse` header, also shown under Trace id), the side panels drop the previous reply,
 * and Retry sends the same body under the same Idempotency-Key until the message is delivered.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineReply } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/redis-server.ts';
import { sendJson, startStub, type StubServer } from '../helpers/stub-server.ts';
import { ARTIFACTS, horizontalOverflow, launchChromium, openPage, type WatchedPage } from './chromium.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

let engine: StubServer;
let engineDown = false;
let service: ServiceProcess;
let browser: Browser;
let ports: { PORT: string; PLAYGROUND_PORT: string };
let origin: string;

const REPLY = 'Maple Court is open from 9 AM to 6 PM on weekdays.';
const startService = () => startServiceProcess({ ...ports, ENGINE_URL: engine.url, RATE_LIMIT_SESSION_PER_MIN: '0' });

beforeAll(async () => {
  engine = await startStub((_req, res) =>
    engineDown ? sendJson(res, 503, { detail: 'overloaded' }) : sendJson(res, 200, engineReply({ response: REPLY, follow_up: '' })));
  ports = { PORT: String(await freePort()), PLAYGROUND_PORT: String(await freePort()) };
  service = await startService();
  origin = service.browserUrl!;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
  await engine?.close();
});

/** Resolves once no message is being sent and no reply is on its way (a streamed reply's question is sent before its reply is complete). */
const settled = (page: Page) => expect.poll(() => page.locator('.turn.sending, .turn.pending').count(), { timeout: 20_000 }).toBe(0);

/** Types a message and sends it; resolves once the page has shown the outcome. */
async function send(page: Page, message: string) {
  const users = page.locator('.turn.user');
  const before = await users.count();
  await page.fill('#message', message);
  await page.click('#send');
  await users.nth(before).waitFor();
  await settled(page);
}

const details = (page: Page) =>
  page.locator('#details dd').evaluateAll((dds) => dds.map((dd) => dd.textContent));
/** The side panel's details but the trace id (which a failed message keeps). */
const detailsButTrace = (page: Page) =>
  page.locator('#details dd:not(#trace-id)').evaluateAll((dds) => dds.map((dd) => dd.textContent));

/** The explanation on the page ends with the failed answer's trace id, which the Trace id detail shows too. */
async function explainedWithTrace(page: Page, explanation: string): Promise<string> {
  const shown = await page.locator('#error').innerText();
  expect(shown.startsWith(`${explanation} Trace id: `), shown).toBe(true);
  const traceId = shown.slice(`${explanation} Trace id: `.length);
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(await page.textContent('#trace-id')).toBe(traceId);
  return traceId;
}
const lastUserTurn = (page: Page) => page.locator('.turn.user').last();

/** Clicks Retry on `failed` and resolves once the page shows the outcome of that try. */
async function retry(page: Page, failed: ReturnType<typeof lastUserTurn>) {
  await failed.locator('button.retry').click();
  await settled(page);
}

/** The chats the page sent: their Idempotency-Key, Accept and body. */
function chatsSent(page: Page) {
  const sent: { key: string | undefined; accept: string | undefined; body: string | null }[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/chat_adapter')) sent.push({ key: request.headers()['idempotency-key'], accept: request.headers()['accept'], body: request.postData() });
  });
  return sent;
}

describe.each([390, 1280])('a message without a reply, %i CSS pixels wide', (width) => {
  let watched: WatchedPage;
  let page: Page;

  beforeAll(async () => {
    watched = await openPage(browser, width);
    page = watched.page;
    await page.goto(`${origin}/playground`);
    await page.click('#new-session');
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('the engine answering 503: "No reply: engine unavailable" streamed and as JSON alike, Retry with the same key and body until delivered', async () => {
    await send(page, 'When is the office open?');
    expect(await page.locator('.turn.assistant').last().innerText()).toContain(REPLY);
    expect(await page.textContent('#intent')).not.toBe('–');
    const assistantTurns = await page.locator('.turn.assistant').count();
    const sent = chatsSent(page);

    // Streamed: the stream opened after validation, so the engine's failure is an error part.
    engineDown = true;
    await send(page, 'And on Sundays?');
    const failed = lastUserTurn(page);
    expect(await failed.getAttribute('class')).toContain('failed');
    expect(await failed.locator('.status').innerText()).toMatch(/^⚠?\s*No reply: engine unavailable/);
    expect(await failed.locator('button.retry').count()).toBe(1);
    const streamedTrace = await explainedWithTrace(page, 'The service failed while answering (engine unavailable). Press Retry on the message.');
    // The reply that broke off is not left on the page, nor anything of the previous reply beside it.
    expect(await page.locator('.turn.assistant').count()).toBe(assistantTurns);
    expect(new Set(await detailsButTrace(page))).toEqual(new Set(['–']));
    expect(await page.locator('#waterfall .row').count()).toBe(0);
    expect(await page.textContent('#latency-summary')).toBe('No reply: the service failed while answering.');
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, `playground-503-${width}.png`), fullPage: true });

    // As JSON the same failure is the 503 itself, told the same way.
    await page.uncheck('#stream');
    await retry(page, failed);
    expect(await lastUserTurn(page).locator('.status').innerText()).toMatch(/^⚠?\s*No reply: engine unavailable/);
    const jsonTrace = await explainedWithTrace(page, 'The service failed while answering (engine unavailable). Press Retry on the message.');
    // Each try is its own request, with its own trace.
    expect(jsonTrace).not.toBe(streamedTrace);
    expect(await page.textContent('#latency-summary')).toBe('No reply: the service failed while answering.');
    await page.check('#stream');

    engineDown = false;
    await retry(page, lastUserTurn(page));
    await page.locator('.turn.assistant:not(.pending)').nth(assistantTurns).waitFor();
    expect(await page.locator('.turn.user.failed').count()).toBe(0);
    expect(await lastUserTurn(page).innerText()).toBe('And on Sundays?');
    expect(await page.locator('.turn.assistant').last().innerText()).toContain(REPLY);
    expect(await page.isVisible('#error')).toBe(false);
    expect(await page.textContent('#intent')).not.toBe('–');
    // Three tries of one message: one key, one body; streamed, as JSON, streamed.
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);
    expect(sent[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(sent.map((s) => s.body)).size).toBe(1);
    expect(sent.map((s) => s.accept?.startsWith('text/event-stream'))).toEqual([true, false, true]);
  });

  it('a refused message (400) offers Edit, which puts its text back, and no Retry', async () => {
    // A graphql_api_key that the service refuses: sending it again cannot help.
    await page.click('.settings summary');
    await page.fill('#graphql-key', 'not base64url!');
    await send(page, 'Hello?');
    const failed = lastUserTurn(page);
    expect(await failed.locator('.status').innerText()).toMatch(/Not sent: refused by the service/);
    expect(await failed.locator('button.retry').count()).toBe(0);
    expect(await page.locator('#error').innerText()).toMatch(/^The service refused the message \(400\): Invalid request: 'graphql_api_key'/);
    await page.fill('#graphql-key', 'local-demo');
    await failed.locator('button.edit').click();
    expect(await page.inputValue('#message')).toBe('Hello?');
    expect(await page.locator('.turn.user.failed').count()).toBe(0);
    expect(await page.isVisible('#error')).toBe(false);
    await page.click('.settings summary');
  });

  it('the service stopped: "the service is not answering" (not "Failed to fetch"), and Retry delivers the message once it runs again', async () => {
    await service.stop();
    await send(page, 'Is parking included?');
    const failed = lastUserTurn(page);
    expect(await failed.locator('.status').innerText()).toMatch(/Not sent: the service is not answering/);
    const explanation = await page.locator('#error').innerText();
    expect(explanation).toBe('The service is not answering: it may be stopped or restarting. Start it again (npm start), then press Retry on the message.');
    expect(explanation).not.toMatch(/fetch/i);
    expect(new Set(await details(page))).toEqual(new Set(['–']));
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, `playground-stopped-${width}.png`), fullPage: true });

    service = await startService();
    expect(service.browserUrl).toBe(origin);
    const assistantTurns = await page.locator('.turn.assistant').count();
    await failed.locator('button.retry').click();
    await page.locator('.turn.assistant:not(.pending)').nth(assistantTurns).waitFor();
    expect(await page.locator('.turn.user.failed').count()).toBe(0);
    expect(await page.locator('.turn.assistant').last().innerText()).toContain(REPLY);
  });

  it('reported no error but the failed requests themselves, and loaded nothing from elsewhere', () => {
    expect(watched.requested.filter((url) => !url.startsWith(origin))).toEqual([]);
    const unexpected = watched.errors.filter((e) => !/^Failed to load resource: (net::ERR_CONNECTION_REFUSED|the server responded with a status of (503|400))/.test(e));
    expect(unexpected).toEqual([]);
  });
});
