import { defineConfig } from 'vitest/config';

/**
 * `npm run test:oncall`: the on-call test (test/deploy/oncall-alerts.oncall.ts), apart from
 * `npm test` because it runs eleven service processes, their Redis servers and a real Prometheus for
 * a couple of minutes. It prints how long each alert took to fire after its failure began.
 */
export default defineConfig({
  test: {
    include: ['test/deploy/**/*.oncall.ts'],
    globalSetup: ['./test/helpers/global-setup.ts', './test/helpers/build-service.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
