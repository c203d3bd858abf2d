/**
 * The closing line "N passed, N failed" is what CI reads: it must count test files that fail
 * without a failed test (a file that does not load, a beforeAll that throws), never 0 failed when
 * vitest exits non-zero. Runs a real vitest on a fixture suite in a child process.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
const fixtureConfig = 'test/fixtures/failing-files/vitest.config.ts';

function vitest(...args: string[]): Promise<{ code: number; lastLine: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', fixtureConfig, ...args], { cwd: repo, timeout: 60_000 }, (err, stdout) => {
      const lines = stdout.split('\n').filter((line) => line.trim() !== '');
      done({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : -1, lastLine: lines.at(-1) ?? '' });
    });
  });
}

describe('the closing summary line', () => {
  it('counts a file that does not load and a file whose beforeAll throws as failures', async () => {
    const run = await vitest();
    expect(run.code).not.toBe(0);
    expect(run.lastLine).toBe('1 passed, 2 failed, 1 skipped');
  });

  it('says 0 failed when every file passes', async () => {
    const run = await vitest('passes');
    expect(run.code).toBe(0);
    expect(run.lastLine).toBe('1 passed, 0 failed, 0 skipped');
  });

  it('counts a run that found no test file as failed, since vitest exits non-zero', async () => {
    const run = await vitest('no-such-file');
    expect(run.code).not.toBe(0);
    expect(run.lastLine).toBe('0 passed, 1 failed, 0 skipped');
  });
});
