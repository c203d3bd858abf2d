/**
 * `npm run test:cluster` prints what the multi-instance run measured: one table, scenario by
 * scenario, file by file, before the summary line (passed scenarios and failed ones
 * alike: a failure's figures help to read it).
 */
import type { Reporter, TestModule } from 'vitest/node';
import type { Figure } from './figures.ts';

export function figuresTable(groups: ReadonlyArray<{ scenario: string; rows: readonly Figure[] }>): string {
  const lines = groups.flatMap((g) => g.rows.map(([what, value], i) => [i === 0 ? g.scenario : '', what, value] as const));
  if (lines.length === 0) return '';
  const width = (col: 0 | 1) => Math.max(...lines.map((l) => l[col].length));
  const [w0, w1] = [width(0), width(1)];
  const text = lines.map(([s, what, value]) => `  ${s.padEnd(w0)}  ${what.padEnd(w1)}  ${value}`);
  return `\nCluster figures (real service and Redis processes on this machine)\n${text.join('\n')}\n`;
}

export default class ClusterFiguresReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    // Files run in whatever order vitest picks; the table follows their names.
    const modules = [...testModules].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
    const groups = modules.flatMap((m) => [...m.children.allTests()].map((t) => t.meta().clusterFigures)).filter((g) => g !== undefined);
    process.stdout.write(figuresTable(groups));
  }
}
