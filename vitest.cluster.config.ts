import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: several real service processes on one Redis (test/cluster/), apart from
 * `npm test` because it takes a minute or two. One file at a time: each starts its own cluster,
 * and two at once would only fight over the machine's cores. It prints the figures it measured.
 */
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.cluster.ts'],
    globalSetup: ['./test/helpers/global-setup.ts', './test/helpers/build-service.ts'],
    reporters: ['default', './test/cluster/figures-reporter.ts', './test/helpers/summary-reporter.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
