import { execFile, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const LOGGER = resolve(import.meta.dirname, '../../src/telemetry/logger.ts');
const DESTINATION = resolve(import.meta.dirname, '../../src/telemetry/log-destination.ts');
const parseLines = (text: string) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

/** Runs `body` in a fresh process with `logger` = createLogger('info') on stdout; returns its stdout lines. */
async function linesOf(body: string): Promise<Record<string, unknown>[]> {
  const script = `const { createLogger } = await import(${JSON.stringify(LOGGER)}); const logger = createLogger('info'); ${body}`;
  // A process killed on purpose rejects; what it wrote is still there.
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000, maxBuffer: 64 * 1024 * 1024 })
    .catch((err: { stdout?: string; signal?: string }) => {
      if (err.signal !== 'SIGKILL') throw err;
      return { stdout: err.stdout ?? '' };
    });
  return parseLines(stdout);
}

describe('log lines on stdout, a pipe (written asynchronously)', () => {
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

describe('log lines on stdout, a file (written at once)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-file-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are all in the file, in order, even when the process is killed the instant after logging them', async () => {
    const file = join(dir, 'stdout.log');
    const fd = openSync(file, 'w');
    const script = `const { createLogger } = await import(${JSON.stringify(LOGGER)}); const logger = createLogger('info');
      for (let i = 0; i < 5000; i++) logger.info({ i }, 'line');
      process.kill(process.pid, 'SIGKILL');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', fd, 'inherit'] });
    closeSync(fd);
    const signal = await new Promise((done) => child.on('exit', (_code, sig) => done(sig)));
    expect(signal).toBe('SIGKILL');
    // Asynchronous writes would have left most of them in the process's buffer.
    const lines = parseLines(readFileSync(file, 'utf8'));
    expect(lines.map((l) => l['i'])).toEqual(Array.from({ length: 5000 }, (_, i) => i));
  });
});

describe('log lines on a pipe nobody reads', () => {
  it('wait within the ceiling; later lines are dropped, counted and reported once the reader catches up', async () => {
    // 2000 lines of about 1 KiB against a 256 KiB ceiling: the pipe and the ceiling hold a few hundred.
    const script = `const { createLogger } = await import(${JSON.stringify(LOGGER)});
      const { droppedLogLines } = await import(${JSON.stringify(DESTINATION)});
      const logger = createLogger('info', undefined, { maxBufferedBytes: 256 * 1024 });
      const pad = 'x'.repeat(1000);
      for (let i = 0; i < 2000; i++) logger.info({ i, pad }, 'line');
      process.stderr.write(JSON.stringify({ dropped: droppedLogLines() }) + '\\n');
      setTimeout(() => process.exit(0), 1500);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Not read until the child has logged everything.
    while (!stderr.includes('\n')) await sleep(20);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await new Promise((done) => child.on('close', done));

    const { dropped } = JSON.parse(stderr) as { dropped: number };
    const lines = parseLines(stdout);
    const written = lines.filter((l) => l['msg'] === 'line');
    const report = lines.filter((l) => l['msg'] === 'log lines dropped: stdout was not being read');
    expect(dropped).toBeGreaterThan(1000);
    expect(written.length + dropped).toBe(2000);
    // What was kept is the start, in order; nothing after the ceiling was reached.
    expect(written.map((l) => l['i'])).toEqual(Array.from({ length: written.length }, (_, i) => i));
    expect(report).toEqual([expect.objectContaining({ level: 40, dropped })]);
    expect(lines.at(-1)).toBe(report[0]);
  });
});
