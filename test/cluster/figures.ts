/**
 * Figures a cluster scenario measured, attached to its test (vitest's task meta travels from the
 * test worker to the reporter), and printed as one table at the end of `npm run test:cluster` by
 * figures-reporter.ts. `npm test` never runs these files, so its no-stdout rule holds.
 */
import type { TestContext } from 'vitest';

export type Figure = readonly [what: string, value: string];

declare module 'vitest' {
  interface TaskMeta {
    clusterFigures?: { scenario: string; rows: Figure[] };
  }
}

/** Records `rows` for the test's row group `scenario`; values are shown as given. */
export function record(task: TestContext['task'], scenario: string, rows: Record<string, string | number>): void {
  const figures = (task.meta.clusterFigures ??= { scenario, rows: [] });
  for (const [what, value] of Object.entries(rows)) figures.rows.push([what, String(value)]);
}

/** Percentile of `values` (nearest rank), rounded to whole milliseconds. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
}

/** "a, b, c" of how many answers each instance gave, e.g. "0: 100, 1: 100, 2: 100". */
export function spread(servedBy: readonly number[]): string {
  const counts = new Map<number, number>();
  for (const slot of servedBy) counts.set(slot, (counts.get(slot) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => a - b).map(([slot, n]) => `#${slot}: ${n}`).join(', ');
}
