import type { SerializedError } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

type RunEndReason = 'passed' | 'interrupted' | 'failed';

export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Counts a run the way a reader of "N passed, N failed" expects: failed tests, plus every test file
 * that failed without a failed test of its own (it did not load, or a beforeAll/afterAll threw),
 * plus errors thrown outside any test. A run that failed for any other reason counts one failure,
 * so the line never says 0 failed when vitest exits non-zero.
 */
export function countRun(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: RunEndReason): RunCounts {
  const count: RunCounts = { passed: 0, failed: 0, skipped: 0 };
  for (const module of testModules) {
    let failedTests = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'failed') failedTests += 1;
      else if (state === 'passed' || state === 'skipped') count[state] += 1;
    }
    const moduleFailed = module.state() === 'failed' || module.errors().length > 0;
    count.failed += failedTests > 0 ? failedTests : moduleFailed ? 1 : 0;
  }
  count.failed += unhandledErrors.length;
  if (reason !== 'passed' && count.failed === 0) count.failed = 1;
  return count;
}

/** Ends every run with one plain line, "N passed, N failed, N skipped", that any CI can read. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>, reason: RunEndReason): void {
    const count = countRun(testModules, unhandledErrors, reason);
    process.stdout.write(`\n${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped\n`);
  }
}
