import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Finds or fetches redis-server once per run (test/support/redis-binary.ts); builds dist/ once.
    globalSetup: ['./test/support/global-setup.ts', './test/support/build-service.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
