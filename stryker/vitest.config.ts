import { defineConfig } from 'vitest/config';
import { GROUPS } from './groups.ts';

/** Only the tests of the group being mutated (MUTATION_GROUP), without the suite's global set-up. */
const group = GROUPS[process.env["MUTATION_GROUP"] ?? ""];
if (group === undefined) throw new Error('MUTATION_GROUP is not a group of stryker/groups.ts');

export default defineConfig({
  root: `${import.meta.dirname}/..`,
  test: { include: group.tests, environment: 'node', testTimeout: 20_000 },
});
