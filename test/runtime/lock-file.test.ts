/**
 * `npm ci` refuses a lock file in which a package's optional dependency has no entry of its own.
 * Some platform packages are not served by the registry this project installs from (msgpackr-extract's
 * darwin/win32/linux-arm builds, needed by BullMQ's msgpackr only as an optional speed-up), so an
 * `npm install` here drops their entries and CI would then fail before any test. Their entries are
 * kept by hand (os/cpu only: npm ci skips them on this platform without fetching).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

interface LockEntry { optionalDependencies?: Record<string, string> }

describe('package-lock.json', () => {
  it('has an entry for every optional dependency a locked package names', () => {
    const lock = JSON.parse(readFileSync(join(import.meta.dirname, '../../package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const nested = `${path === '' ? '' : `${path}/`}node_modules/${name}`;
        if (!(nested in lock.packages) && !(`node_modules/${name}` in lock.packages)) missing.push(`${name} (of ${path || 'the project'})`);
      }
    }
    expect(missing, 'restore these entries (see this file) before committing the lock file').toEqual([]);
  });
});
