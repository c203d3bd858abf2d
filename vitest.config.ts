import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Finds or fetches redis-server once per run (test/helpers/redis-binary.ts); builds dist/ once.
    globalSetup: ['./test/helpers/global-setup.ts', './test/helpers/build-service.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
