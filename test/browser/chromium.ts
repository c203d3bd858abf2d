/**
 * Debian's Chromium driven by playwright-core for the browser tests: one browser per test file, a
 * context per viewport, every request and every error a page reports recorded, screenshots in
 * .artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from './require-chromium.ts';

export const ARTIFACTS = resolve(import.meta.dirname, '../../.artifacts');
const CHROMIUM_FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
];

export function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

export interface WatchedPage {
  readonly page: Page;
  /** Every address the page asked for. */
  readonly requested: string[];
  /** Every error the page reported (script errors, CSP violations, failed loads it logged). */
  readonly errors: string[];
}

/** A page of its own context, `width` CSS pixels wide (390: a phone; 1280: a laptop). */
export async function openPage(browser: Browser, width: number, height = 900): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width, height }, ...(width < 600 && { isMobile: true, hasTouch: true, deviceScaleFactor: 2 }) });
  const page = await context.newPage();
  const requested: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return { page, requested, errors };
}

/** How much wider than the viewport the document is (0: no sideways scrolling). */
export function horizontalOverflow(page: Page): Promise<number> {
  // Runs in the page (the test's own type checking knows no DOM).
  return page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth') as Promise<number>;
}
