// @ts-check
/**
 * StrykerJS for one group of stryker/groups.ts, chosen by MUTATION_GROUP (scripts/mutation.ts sets
 * it). Incremental: a re-run mutates only what changed since the group's last run.
 */
import { GROUPS } from './stryker/groups.ts';

const name = process.env.MUTATION_GROUP ?? '';
const group = GROUPS[name];
if (group === undefined) throw new Error(`MUTATION_GROUP must be one of ${Object.keys(GROUPS).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // What the sandbox copy of the project leaves out: downloaded tools, build output, reports, data.
  ignorePatterns: ['.cache', 'dist', 'dist.*', 'data', 'bench-results', '.artifacts', 'reports', 'docs', 'deploy'],
  // No type checker runs (below), so there are no type checks to switch off in the mutated files.
  disableTypeChecks: false,
  vitest: { configFile: 'stryker/vitest.config.ts', related: false },
  mutate: group.mutate,
  // TypeScript 7 has no JavaScript API for Stryker's checker: no type checking of mutants, and a
  // tsconfig that does not exist so that Stryker does not try to read the project's.
  checkers: [],
  tsconfigFile: 'stryker/no-tsconfig.json',
  // Per-test coverage would run each mutant against only the tests that reached it, but with Vitest 5
  // the runner's test-name filter matches nothing for nested describe blocks (stryker-js#6210) and
  // static mutants are activated after their module loaded (#6144): mutants then falsely survive.
  // Every test of the group runs for every mutant instead: slower, and right.
  coverageAnalysis: 'off',
  incremental: true,
  incrementalFile: `reports/mutation/${name}/incremental.json`,
  reporters: ['clear-text', 'html', 'json', 'progress'],
  htmlReporter: { fileName: `reports/mutation/${name}/index.html` },
  jsonReporter: { fileName: `reports/mutation/${name}/report.json` },
  tempDirName: `reports/mutation/.tmp-${name}`,
  cleanTempDir: 'always',
  concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
  timeoutMS: 10_000,
  thresholds: { high: 90, low: 85, break: null },
};
