/**
 * globalSetup of `npm run test:browser`: the browser test drives Debian's Chromium (playwright-core
 * downloads no browser). Without it the run stops here with one line saying what to install.
 */
import { accessSync, constants } from 'node:fs';

/** Debian's package; CHROMIUM_PATH points elsewhere (e.g. to check the message below). */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export default function setup(): void {
  try {
    accessSync(CHROMIUM_PATH, constants.X_OK);
  } catch {
    process.stderr.write(`test:browser: Chromium is missing at ${CHROMIUM_PATH}: install it with "apt-get install chromium" (.ci/run does this)\n`);
    process.exit(1);
  }
}
