/**
 * Prometheus's own programs for the deploy tests: `promtool` (rule checks and unit tests) and
 * `prometheus` (a real server scraping the service and evaluating the alerts). From PATH, or from
 * Debian's `prometheus` package unpacked into .cache/prometheus (fetched once, like the Redis tests'
 * redis-server). When neither works, the error is one line saying why (offline, no package lists)
 * and what to install, so that it reaches the run's summary rather than a stack trace.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fetchDebianPackages, firstLine, onPath } from './debian-packages.ts';

const root = resolve(import.meta.dirname, '../..');
const cacheDir = join(root, '.cache/prometheus');

/** `where` is for the test of the failure itself: another cache folder and environment (PATH). */
export async function locatePrometheusProgram(
  name: 'promtool' | 'prometheus',
  where: { cacheDir: string; env: NodeJS.ProcessEnv } = { cacheDir, env: process.env },
): Promise<string> {
  const found = onPath(name, where.env['PATH'] ?? '');
  if (found !== undefined) return found;
  const cached = join(where.cacheDir, 'usr/bin', name);
  if (!existsSync(cached)) {
    try {
      await fetchDebianPackages(['prometheus'], where.cacheDir, where.env);
    } catch (err) {
      const cause = firstLine(err);
      const offline = /could not resolve|temporary failure|unable to connect|network is unreachable|failed to fetch/i.test(cause) ? 'no network? ' : '';
      const failure = new Error(
        `${name} is needed: none is on PATH and Debian's prometheus package could not be fetched (${offline}apt-get: ${cause}); install it ("apt-get install prometheus") or put ${name} on PATH`,
      );
      failure.stack = failure.message;
      throw failure;
    }
  }
  return cached;
}
