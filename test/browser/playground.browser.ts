/**
 * The playground in a real headless Chromium (Debian's, driven by playwright-core), against the real
 * service process with its embedded local stack, opened where a person opens it: at the
 * browser-safe port the start-up log names (Chromium refuses the API's port 6000). On a phone (390
 * CSS pixels) and a laptop (1280): a question gets its reply and a readable waterfall, long
 * messages wrap instead of widening the page, a Spanish reply, a handoff, the masked contact, a
 * `rag` reply streamed word by word by the reference engine, and the same page with streaming off.
 * Screenshots go to .artifacts/.
 */
import { join } from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROGRESS_TEXTS } from '../../src/http/playground/progress.js';
import { stepKind } from '../../src/http/playground/waterfall.js';
import { freePort } from '../helpers/redis-server.ts';
import { ARTIFACTS, horizontalOverflow, launchChromium, openPage, type WatchedPage } from './chromium.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

let service: ServiceProcess;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  service = await startServiceProcess({ PLAYGROUND_PORT: String(await freePort()) });
  origin = service.browserUrl!;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

interface ChatAnswer {
  response: string;
  sub_intent: string;
  retrieval_type: string;
  language: string;
  latency: { steps: Record<string, number> };
  contact_found?: { name: string | null; phone: string | null; email: string | null };
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

/** windows-1252 back to its bytes: each of the 256 characters it decodes a byte to. */
const WINDOWS_1252_BYTE = new Map([...new TextDecoder('windows-1252').decode(Uint8Array.from({ length: 256 }, (_, i) => i))].map((c, i) => [c, i]));

/**
 * The body as the service sent it. An event stream is always UTF-8, but Chromium hands playwright
 * a `text/event-stream` body without a charset decoded as windows-1252 ("•" as "â€¢"): its
 * characters are turned back into the bytes that were sent, then read as UTF-8.
 */
async function textOf(response: Response): Promise<string> {
  const text = await response.text();
  if (!(response.headers()['content-type'] ?? '').startsWith('text/event-stream')) return text;
  return Buffer.from([...text].map((c) => WINDOWS_1252_BYTE.get(c) ?? 0x3f)).toString('utf8');
}

/** Types a question, sends it, and returns the service's answer as the page received it. */
async function ask(page: Page, question: string): Promise<ChatAnswer> {
  const turns = await page.locator('.turn.assistant').count();
  await page.fill('#message', question);
  const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/chat_adapter')), page.click('#send')]);
  expect(response.status()).toBe(200);
  // The reply's turn is on the page at once (pending); it is complete when the answer is shown.
  await page.locator('.turn.assistant:not(.pending)').nth(turns).waitFor();
  const answer = answerIn(await textOf(response));
  expect(await page.locator('.turn.assistant').nth(turns).innerText()).toContain(answer.response.slice(0, 20));
  return answer;
}

describe('where a browser opens the playground', () => {
  it('is the port the start-up log names, not the API port 6000, which Chromium refuses', async () => {
    expect(service.output()).toContain(`"playground":"${origin}/playground/"`);
    const { page } = await openPage(browser, 1280);
    await expect(page.goto('http://127.0.0.1:6000/playground/')).rejects.toThrow(/ERR_UNSAFE_PORT/);
    const res = await (await page.context().newPage()).goto(`${origin}/playground`);
    expect(res?.status()).toBe(200);
    expect(await res?.frame().title()).toBe('Chat adapter playground');
    await page.context().close();
  });
});

describe.each([390, 1280])('the playground %i CSS pixels wide', (width) => {
  let watched: WatchedPage;
  let page: Page;

  beforeAll(async () => {
    watched = await openPage(browser, width);
    page = watched.page;
    await page.goto(`${origin}/playground`);
    // A session of its own (the rate limit counts per session).
    await page.click('#new-session');
  });
  afterAll(async () => {
    await page?.context().close();
  });

  it('answers a typed question, with a waterfall of readable bars and every step accounted for, in order', async () => {
    await page.selectOption('#property', '1234567890123456789');
    const answer = await ask(page, 'Do you have any 2 bedroom apartments available?');

    expect(await page.locator('.turn.assistant').last().innerText()).toContain(answer.response.slice(0, 30));
    expect(await page.textContent('#sub-intent')).toBe(answer.sub_intent);
    expect(await page.textContent('#retrieval-type')).toBe('adapter');
    expect(await page.textContent('#language')).toBe('en');
    expect(await page.textContent('#handoff')).toBe('none');
    expect(await page.locator('.turn.user.failed, .turn.user.sending').count()).toBe(0);

    // Every step of latency.steps is either drawn or listed under the bars, in the order it ran.
    const steps = Object.keys(answer.latency.steps);
    expect(steps.length).toBeGreaterThan(10);
    const drawn = await page.locator('#waterfall .row').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-step')));
    const listed = await page.locator('#short-steps [data-step]').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')));
    expect(drawn.length).toBeGreaterThan(0);
    expect([...drawn, ...listed].sort()).toEqual([...steps].sort());
    expect(drawn).toEqual(steps.filter((step) => drawn.includes(step)));
    expect(listed).toEqual(steps.filter((step) => listed.includes(step)));
    // Each drawn bar is coloured by what its step waits for (engine, GraphQL, cache...).
    const classes = await page.locator('#waterfall .row').evaluateAll((rows) => rows.map((row) => row.className));
    expect(classes).toEqual(drawn.map((step) => `row kind-${stepKind(step!)}`));
    expect(classes.some((c) => c.includes('kind-graphql'))).toBe(true);

    // No hairlines: every drawn bar is at least 3 px wide and 12 px high, on a track of a useful width.
    const boxes = await page.locator('#waterfall .bar').evaluateAll((bars) =>
      bars.map((bar) => ({ width: bar.getBoundingClientRect().width, height: bar.getBoundingClientRect().height, track: bar.parentElement!.getBoundingClientRect().width })));
    for (const box of boxes) {
      expect(box.width).toBeGreaterThanOrEqual(3);
      expect(box.height).toBeGreaterThanOrEqual(12);
      expect(box.track).toBeGreaterThanOrEqual(width < 600 ? 250 : 150);
    }
    // Step names are shown whole.
    const clipped = await page.locator('#waterfall .name').evaluateAll((names) => names.filter((n) => n.scrollWidth > n.clientWidth + 1).length);
    expect(clipped).toBe(0);
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, `playground-${width}.png`), fullPage: true });
  });

  it('wraps long messages instead of widening the page, and refuses one over 4,000 characters before sending it', async () => {
    const requestsBefore = watched.requested.filter((url) => url.endsWith('/chat_adapter')).length;
    const tooLong = 'x'.repeat(4_100);
    await page.fill('#message', tooLong);
    await page.click('#send');
    await expect.poll(() => page.isVisible('#error')).toBe(true);
    expect(await page.textContent('#error')).toBe('The message is 4,100 characters long; the service takes at most 4,000. Shorten it and send again.');
    expect(await page.inputValue('#message')).toBe(tooLong);
    expect(watched.requested.filter((url) => url.endsWith('/chat_adapter')).length).toBe(requestsBefore);
    expect(await horizontalOverflow(page)).toBe(0);

    await ask(page, 'y'.repeat(3_990));
    await ask(page, `Is this your listing? https://listings.example.com/maple-court/units/B-305/${'photos-and-floor-plan-'.repeat(12)}`);
    expect(await page.isVisible('#error')).toBe(false);
    expect(await horizontalOverflow(page)).toBe(0);
    const widest = await page.locator('.turn').evaluateAll((turns) => Math.max(...turns.map((t) => t.getBoundingClientRect().right)));
    expect(widest).toBeLessThanOrEqual(width);
    await page.screenshot({ path: join(ARTIFACTS, `playground-long-${width}.png`), fullPage: true });
  });

  it('replies in Spanish with the toggle, and shows a handoff that does not ask again for the contact details just given', async () => {
    await page.click('#new-session');
    await ask(page, 'Do you have any 2 bedroom apartments available?');
    await page.check('#spanish-toggle');
    const spanish = await ask(page, 'Are pets allowed?');
    expect(spanish.language).toBe('es');
    expect(await page.textContent('#language')).toBe('es');
    expect(await page.locator('.turn.assistant').last().innerText()).toMatch(/mascota/i);
    await page.uncheck('#spanish-toggle');

    const handoff = await ask(page, 'Please connect me with a human agent. I am Juan Pérez, call me at (415) 555-2671.');
    expect(await page.textContent('#handoff')).toMatch(/^started/);
    expect(handoff.contact_found).toEqual({ name: 'J••• P•••', phone: '•••• 2671', email: null });
    expect(await page.textContent('#contact')).toMatch(/^name J••• P•••, phone •••• 2671 \(\d+\.\d ms\)$/);
    const reply = await page.locator('.turn.assistant').last().innerText();
    expect(reply).toContain('They will reach you with the contact details you just gave.');
    expect(reply).not.toContain('could you share your name');
    expect(await horizontalOverflow(page)).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, `playground-conversation-${width}.png`), fullPage: true });
  });

  it('shows the contact a message gave, masked as the service masks it, and says when none was found', async () => {
    await page.click('#new-session');
    const leak = await ask(page, "I'm Maria Lopez, call me at 415-555-0134, there's a water leak");
    expect(leak.contact_found).toMatchObject({ name: 'M••• L•••', phone: '•••• 0134' });
    const contact = (await page.textContent('#contact'))!;
    expect(contact).toMatch(/^name M••• L•••, phone •••• 0134 \(\d+\.\d ms\)$/);
    // The page shows nothing of the details themselves but what the service sent.
    expect(contact).not.toMatch(/Maria|Lopez|415|555/);

    const noise = await ask(page, 'I want to file a complaint about the noise from my neighbours');
    expect(noise.sub_intent).toBe('complaint_filing');
    expect(noise.contact_found).toBeUndefined();
    expect(await page.textContent('#contact')).toMatch(/^looked for, none found \(\d+\.\d ms\)$/);

    await ask(page, 'Are pets allowed?');
    expect(await page.textContent('#contact')).toBe('not looked for (sub-intent does not ask for it)');
  });

  it('streams a rag reply: the typing line says what happens in plain words, then the text grows as the engine writes it', async () => {
    await page.click('#new-session');
    await page.selectOption('#property', '1234567890123456789');
    const turns = await page.locator('.turn.assistant').count();
    await page.fill('#message', 'How much is the security deposit and the application fee?');
    const seen: { pending: boolean; progress: string | null; text: string; elements: number; questionSending: boolean }[] = [];
    let answered = false;
    const watching = (async () => {
      const turn = page.locator('.turn.assistant').nth(turns);
      await turn.waitFor();
      let shot = false;
      while (!answered) {
        const state = await turn.evaluate((t) => ({
          pending: t.classList.contains('pending'),
          progress: t.querySelector('.progress')?.textContent ?? null,
          text: t.querySelector('.text')!.textContent!,
          elements: t.querySelector('.text')!.childElementCount,
          questionSending: t.previousElementSibling!.classList.contains('sending'),
        }));
        seen.push(state);
        if (!shot && state.pending && state.text !== '') {
          shot = true;
          await page.screenshot({ path: join(ARTIFACTS, `playground-streaming-${width}.png`) });
        }
        await page.waitForTimeout(10);
      }
    })();
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/chat_adapter')), page.click('#send')]);
    expect(response.headers()['content-type']).toBe('text/event-stream');
    const answer = answerIn(await textOf(response));
    await page.locator('.turn.assistant:not(.pending)').nth(turns).waitFor();
    answered = true;
    await watching;
    expect(answer.retrieval_type).toBe('rag');

    // While pending: a typing line in a visitor's words (never a step's name such as
    // "reuseCachedReply 0.0 ms"), then text that grew before the answer was complete, shown as plain
    // text (no element made from it yet).
    const pending = seen.filter((s) => s.pending);
    const typing = new Set(pending.map((s) => s.progress).filter((p) => p !== null && p !== 'Waiting for the reply…'));
    expect(typing.size).toBeGreaterThan(0);
    expect([...typing].filter((p) => !PROGRESS_TEXTS.includes(p!))).toEqual([]);
    expect([...typing].join(' ')).not.toMatch(/[a-z][A-Z]|\bms\b/);
    const partial = pending.filter((s) => s.text !== '' && s.text.length < answer.response.length && answer.response.startsWith(s.text));
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.every((s) => s.elements === 0)).toBe(true);
    // Once the stream started, the question no longer shows as being sent.
    expect(partial.every((s) => !s.questionSending)).toBe(true);

    // Complete: rendered as Markdown by renderAnswer, the typing line gone, the panels filled.
    const turn = page.locator('.turn.assistant').nth(turns);
    expect(await turn.locator('.progress').count()).toBe(0);
    expect(await turn.locator('.text p').count()).toBeGreaterThan(0);
    expect((await turn.innerText()).replace(/\s+/g, ' ')).toContain(answer.response.slice(-20).replace(/\s+/g, ' '));
    expect(await page.textContent('#retrieval-type')).toBe('rag');
    expect(await page.locator('#waterfall .row[data-step="askEngine"]').count()).toBe(1);
  });

  it('with "Stream replies" off asks for JSON and shows the answer the same way', async () => {
    await page.uncheck('#stream');
    const turns = await page.locator('.turn.assistant').count();
    await page.fill('#message', 'Are pets allowed?');
    const [response] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/chat_adapter')), page.click('#send')]);
    expect(response.request().headers()['accept']).toBe('application/json');
    expect(response.headers()['content-type']).toMatch(/^application\/json/);
    const answer = (await response.json()) as ChatAnswer;
    await page.locator('.turn.assistant:not(.pending)').nth(turns).waitFor();
    expect(await page.locator('.turn.assistant').nth(turns).innerText()).toContain(answer.response.slice(0, 30));
    expect(await page.textContent('#sub-intent')).toBe(answer.sub_intent);
    expect(await page.locator('#waterfall .row').count()).toBeGreaterThan(0);
    await page.check('#stream');
  });

  it('keeps the message box on the first screen, however many messages the conversation holds', async () => {
    // Run in the page (the test's own type checking knows no DOM).
    const boxOnScreen = () =>
      page.evaluate(`(() => {
        const box = document.getElementById('message').getBoundingClientRect();
        return { top: Math.round(box.top), bottom: Math.round(box.bottom), height: innerHeight, scrolled: Math.round(scrollY) };
      })()`) as Promise<{ top: number; bottom: number; height: number; scrolled: number }>;
    await page.click('#new-session');
    await page.evaluate('scrollTo(0, 0)');
    for (const question of ['Do you allow pets?', 'Is there parking?', 'How much is the deposit?', 'When is the office open?']) {
      await ask(page, question);
      const box = await boxOnScreen();
      expect(box.top, JSON.stringify(box)).toBeGreaterThanOrEqual(0);
      expect(box.bottom, JSON.stringify(box)).toBeLessThanOrEqual(box.height);
      // Sending did not scroll the page itself: the transcript scrolls inside its own box.
      expect(box.scrolled).toBe(0);
    }
    // The newest reply is the one in view, at the foot of the transcript.
    const last = await page.evaluate(`(() => {
      const turns = document.querySelectorAll('.turn.assistant');
      const box = turns[turns.length - 1].getBoundingClientRect();
      const transcript = document.getElementById('transcript').getBoundingClientRect();
      return box.bottom <= transcript.bottom + 1 && box.top < transcript.bottom;
    })()`);
    expect(last).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, `playground-long-${width}.png`) });
  });

  it('loaded everything from the service and reported no error', () => {
    expect(watched.requested.filter((url) => !url.startsWith(origin))).toEqual([]);
    expect(watched.errors).toEqual([]);
  });
});
