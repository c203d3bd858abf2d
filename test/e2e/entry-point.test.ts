/**
 * `npm start`'s two steps: the build (prestart) that must not pull dist/ from under an instance
 * already running from it, and the entry point that must say which Node it needs instead of
 * failing with a stack trace on an older one (the system's Node rather than the pinned one).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, SERVICE_ENTRY } from '../helpers/service-process.ts';

describe('the entry point under an older Node', () => {
  it('prints one line saying it needs Node 24 and exits 1, loading nothing else', () => {
    // This Node made to report an older version before the entry runs, as Node 20 would.
    const older = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})';
    const run = spawnSync(process.execPath, ['--import', older, SERVICE_ENTRY], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', ENVIRONMENT: 'nonsense' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^chat-adapter: needs Node 24 or later, this is Node 20\.20\.2; /)]);
  });
});

describe('the build before npm start', () => {
  it('leaves dist/ as it is when the sources have not changed since it was built', () => {
    const entry = join(REPO_ROOT, SERVICE_ENTRY);
    const before = statSync(entry);
    execFileSync(process.execPath, ['scripts/build.ts'], { cwd: REPO_ROOT, stdio: 'pipe' });
    const after = statSync(entry);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });
});
