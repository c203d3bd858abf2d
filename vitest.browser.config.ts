import { defineConfig } from 'vitest/config';

/** `npm run test:browser`: the Chromium tests, apart from `npm test` (which needs no browser). */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.ts'],
    globalSetup: ['./test/browser/require-chromium.ts', './test/helpers/build-service.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    environment: 'node',
    // One file at a time: each starts the service and a Chromium, and the machine may have 2 cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
