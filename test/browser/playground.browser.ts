/**
 * The playground and the reference page in a real headless Chromium (Debian's, driven by
 * playwright-core), against the real service process with its embedded local stack: a question
 * typed into the page gets its reply, the waterfall has one bar per step of the response's
 * `latency.steps`, and nothing is loaded from anywhere but the service. Screenshots go to .artifacts/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './require-chromium.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

const ARTIFACTS = resolve(import.meta.dirname, '../../.artifacts');
const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run',
];

let service: ServiceProcess;
let context: BrowserContext;
let profile: string;
let page: Page;
/** Every address the page asked for, and every error it reported (CSP violations included). */
const requested: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  service = await startServiceProcess();
  profile = mkdtempSync(join(tmpdir(), 'chat-adapter-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS, viewport: { width: 1280, height: 900 } });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('request', (request) => requested.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

afterAll(async () => {
  await context?.close();
  if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  await service?.stop();
});

interface ChatAnswer {
  response: string;
  sub_intent: string;
  language: string;
  latency: { steps: Record<string, number> };
}

/** The JSON answer in what the page received: the data-chat part of a stream, or the JSON body. */
function answerIn(body: string): ChatAnswer {
  if (!body.startsWith('data: ')) return JSON.parse(body) as ChatAnswer;
  const chat = body
    .split('\n\n')
    .filter((block) => block.startsWith('data: {'))
    .map((block) => JSON.parse(block.slice(6)) as { type: string; data?: ChatAnswer })
    .find((part) => part.type === 'data-chat');
  if (chat?.data === undefined) throw new Error('the stream held no data-chat part');
  return chat.data;
}

/** Types a question, sends it, and returns the service's answer as the page received it. */
async function ask(question: string): Promise<ChatAnswer> {
  const turns = await page.locator('.turn.assistant').count();
  await page.fill('#message', question);
  const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/chat_adapter')), page.click('#send')]);
  expect(response.status()).toBe(200);
  await page.locator('.turn.assistant').nth(turns).waitFor();
  const answer = answerIn(await response.text());
  await page.locator('.turn.assistant').nth(turns).filter({ hasText: answer.response.slice(0, 20) }).waitFor();
  return answer;
}

describe('the playground in Chromium', () => {
  it('answers a typed question and draws one waterfall bar per step, in order', async () => {
    await page.goto(`${service.url}/playground`);
    await page.selectOption('#property', '1234567890123456789');
    const answer = await ask('Do you have any 2 bedroom apartments available?');

    const reply = page.locator('.turn.assistant').last();
    expect(await reply.innerText()).toContain(answer.response.slice(0, 30));
    expect(await page.textContent('#sub-intent')).toBe(answer.sub_intent);
    expect(await page.textContent('#retrieval-type')).toBe('adapter');
    expect(await page.textContent('#language')).toBe('en');
    expect(await page.textContent('#handoff')).toBe('none');

    const steps = Object.keys(answer.latency.steps);
    expect(steps.length).toBeGreaterThan(10);
    const rows = page.locator('#waterfall .row');
    expect(await rows.count()).toBe(steps.length);
    expect(await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-step')))).toEqual(steps);
    // The engine and GraphQL steps are coloured as such.
    expect(await page.getAttribute('#waterfall .row[data-step="askEngine"]', 'class')).toContain('kind-engine');
    expect(await page.getAttribute('#waterfall .row[data-step="storeAnswer"]', 'class')).toContain('kind-graphql');
    await page.screenshot({ path: join(ARTIFACTS, 'playground.png'), fullPage: true });
  });

  it('replies in Spanish with the toggle, and shows a handoff', async () => {
    await page.check('#spanish-toggle');
    const spanish = await ask('Are pets allowed?');
    expect(spanish.language).toBe('es');
    expect(await page.textContent('#language')).toBe('es');
    await page.uncheck('#spanish-toggle');

    await ask('Please connect me with a human agent.');
    expect(await page.textContent('#handoff')).toMatch(/^started/);
    await page.screenshot({ path: join(ARTIFACTS, 'playground-conversation.png'), fullPage: true });
  });

  it('streams a retrieved reply: the step parts show progress, then the text grows as the engine writes', async () => {
    await page.goto(`${service.url}/playground`);
    await page.selectOption('#property', '1234567890123456789');
    const turns = await page.locator('.turn.assistant').count();
    await page.fill('#message', 'How much is the security deposit and the application fee?');
    const seen = new Set<string>();
    let answered = false;
    const watching = (async () => {
      const turn = page.locator('.turn.assistant').nth(turns);
      await turn.waitFor();
      while (!answered) {
        seen.add(await turn.innerText());
        await page.waitForTimeout(10);
      }
    })();
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/chat_adapter')), page.click('#send')]);
    expect(response.headers()['content-type']).toBe('text/event-stream');
    const answer = answerIn(await response.text());
    answered = true;
    await watching;
    const texts = [...seen].filter((t) => t !== '');
    // A step name shown while waiting, then text that grew before it was complete.
    expect(texts.some((t) => t.endsWith('…'))).toBe(true);
    const partial = texts.filter((t) => !t.endsWith('…') && t.length < answer.response.length && answer.response.startsWith(t.trim()));
    expect(partial.length).toBeGreaterThan(0);
    await page.locator('.turn.assistant').nth(turns).filter({ hasText: answer.response.slice(-20) }).waitFor();
  });

  it('loaded everything from the service and reported no error', () => {
    expect(requested.filter((url) => !url.startsWith(service.url))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

describe('the reference page in Chromium', () => {
  it('renders the document from the service, and "Try it out" sends the documented example to it', async () => {
    const before = requested.length;
    await page.goto(`${service.url}/docs`);
    const chat = page.locator('#operations-chat-post_chat_adapter');
    await chat.locator('.opblock-summary').click();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${service.url}/chat_adapter`),
      chat.locator('button.execute').click(),
    ]);
    expect(response.status()).toBe(200);
    const status = chat.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect(await status.innerText()).toContain('200');
    await chat.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: false });
    expect(requested.slice(before).filter((url) => !url.startsWith(service.url) && !url.startsWith('data:'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
