import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const LOGGER = resolve(import.meta.dirname, '../../src/telemetry/logger.ts');

/** Runs `body` in a fresh process with `logger` = createLogger('info') on stdout; returns its stdout lines. */
async function linesOf(body: string): Promise<Record<string, unknown>[]> {
  const script = `const { createLogger } = await import(${JSON.stringify(LOGGER)}); const logger = createLogger('info'); ${body}`;
  // A process killed on purpose rejects; what it wrote is still there.
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000, maxBuffer: 64 * 1024 * 1024 })
    .catch((err: { stdout?: string; signal?: string }) => {
      if (err.signal !== 'SIGKILL') throw err;
      return { stdout: err.stdout ?? '' };
    });
  return stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('log lines on stdout (written asynchronously)', () => {
  it('are all written, in order, when the process exits at once after logging them', async () => {
    const lines = await linesOf(`for (let i = 0; i < 20000; i++) logger.info({ i }, 'line'); process.exit(0);`);
    expect(lines).toHaveLength(20_000);
    expect(lines.map((l) => l['i'])).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
  });

  it('are written while the process keeps running, without waiting for more', async () => {
    const lines = await linesOf(`
      logger.info({}, 'first');
      await new Promise((r) => setTimeout(r, 200));
      logger.warn({}, 'second');
      await new Promise((r) => setTimeout(r, 200));
      process.kill(process.pid, 'SIGKILL');`);
    // Killed without any exit handler: only what was already written is there, and both were.
    expect(lines.map((l) => l['msg'])).toEqual(['first', 'second']);
    // Each line carries its own ISO time (formatted once per millisecond, never reused across one).
    const times = lines.map((l) => Date.parse(String(l['time'])));
    expect(lines.every((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(String(l['time'])))).toBe(true);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(200);
  });
});
