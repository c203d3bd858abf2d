import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchDebianPackages } from './debian-packages.ts';

const scratch = mkdtempSync(join(tmpdir(), 'debian-packages-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A stand-in apt-get that fails as the real one does, writing `stderr` and exiting 100. */
function fakeAptGet(name: string, stderr: string): NodeJS.ProcessEnv {
  const bin = join(scratch, name);
  mkdirSync(bin);
  writeFileSync(join(bin, 'apt-get'), `#!/bin/sh\ncat >&2 <<'EOF'\n${stderr}\nEOF\nexit 100\n`);
  chmodSync(join(bin, 'apt-get'), 0o755);
  return { PATH: `${bin}:/usr/bin:/bin` };
}

const UNSANDBOXED = "W: Download is performed unsandboxed as root as file '/tmp/x/prometheus.deb' couldn't be accessed by user '_apt'. - pkgAcquire::Run (13: Permission denied)";

describe('fetching a Debian package for the tests', () => {
  it('offline, says in one line that the archive cannot be reached, not apt\'s _apt warning', async () => {
    const env = fakeAptGet('offline', `${UNSANDBOXED}\nE: Failed to fetch http://deb.debian.org/debian/pool/main/p/prometheus/prometheus.deb  Temporary failure resolving 'deb.debian.org'`);
    const failure = await fetchDebianPackages(['prometheus'], join(scratch, 'cache-offline'), env).catch((err: unknown) => err);
    expect((failure as Error).message).toBe("could not download Debian's prometheus package: the Debian package archive cannot be reached (offline?)");
  });

  it('otherwise gives apt\'s own error line', async () => {
    const env = fakeAptGet('unknown', `${UNSANDBOXED}\nE: Unable to locate package prometheus`);
    const failure = await fetchDebianPackages(['prometheus'], join(scratch, 'cache-unknown'), env).catch((err: unknown) => err);
    expect((failure as Error).message).toBe("could not download Debian's prometheus package: Unable to locate package prometheus");
  });
});
