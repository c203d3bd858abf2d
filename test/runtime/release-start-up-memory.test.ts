import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { releaseStartUpMemory, START_UP_GC_NAME } from '../../src/runtime/release-start-up-memory.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const MODULE = resolve(ROOT, 'src/runtime/release-start-up-memory.ts');

/** In a real Node process started with (or without) the flag: the young generation before and after. */
function runInProcess(flags: readonly string[]): { before: number; after: number; ms: number | null; globalGc: string } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { releaseStartUpMemory } from ${JSON.stringify(MODULE)};
    const young = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    // What loading modules does: many objects surviving young collections grow the young generation.
    const kept = [];
    for (let i = 0; i < 400000; i++) kept.push({ i, text: 'object ' + i });
    const before = young();
    kept.length = 0;
    const ms = releaseStartUpMemory() ?? null;
    console.log(JSON.stringify({ before, after: young(), ms, globalGc: typeof globalThis.gc }));`;
  return JSON.parse(execFileSync(process.execPath, [...flags, '--max-semi-space-size=32', '--input-type=module', '-e', script], { encoding: 'utf8' })) as ReturnType<typeof runInProcess>;
}

describe('releasing the start-up memory', () => {
  it('with the flag npm start gives: shrinks the young generation start-up grew, no global gc()', () => {
    const run = runInProcess([`--expose-gc-as=${START_UP_GC_NAME}`]);
    expect(run.ms).not.toBeNull();
    expect(run.after).toBeLessThan(run.before / 4);
    expect(run.globalGc).toBe('undefined');
  });

  it('without the flag (tests, a bare node): does nothing and says so', () => {
    const run = runInProcess([]);
    expect(run.ms).toBeNull();
    expect(run.after).toBe(run.before);
    expect(releaseStartUpMemory()).toBeUndefined();
  });

  it('npm start and the image start the service with the flag', () => {
    const start = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(start).toContain(`--expose-gc-as=${START_UP_GC_NAME} dist/src/server.js`);
    expect(readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8')).toContain(`"--expose-gc-as=${START_UP_GC_NAME}", "dist/src/server.js"]`);
  });
});
