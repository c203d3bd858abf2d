/**
 * Prometheus's own checker on the scrape configuration and the alerting rules of deploy/. promtool
 * comes from PATH, or from Debian's `prometheus` package unpacked into .cache/prometheus (fetched
 * once, like the Redis tests' redis-server); without either the test fails saying what to install.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fetchDebianPackages, firstLine, onPath, run } from '../support/debian-packages.ts';

const root = resolve(import.meta.dirname, '../..');
const cacheDir = join(root, '.cache/prometheus');

async function locatePromtool(): Promise<string> {
  const found = onPath('promtool', process.env['PATH'] ?? '');
  if (found !== undefined) return found;
  const cached = join(cacheDir, 'usr/bin/promtool');
  if (!existsSync(cached)) {
    try {
      await fetchDebianPackages(['prometheus'], cacheDir);
    } catch (err) {
      throw new Error(`promtool is needed: none is on PATH and fetching Debian's prometheus package failed (${firstLine(err)}); install it with "apt-get install prometheus"`);
    }
  }
  return cached;
}

describe('promtool on deploy/', () => {
  let promtool: string;
  beforeAll(async () => {
    promtool = await locatePromtool();
  }, 300_000);

  it('accepts the alerting rules', async () => {
    const file = join(root, 'deploy/prometheus/alerts.yml');
    const { stdout } = await run(promtool, ['check', 'rules', file]);
    // Every rule of the file is found (none dropped as malformed).
    const rules = readFileSync(file, 'utf8').match(/^ {6}- alert: /gm)?.length ?? 0;
    expect(rules).toBeGreaterThan(5);
    expect(stdout).toContain(`SUCCESS: ${rules} rules found`);
  });

  it('accepts the compose stack scrape configuration (with its rules file)', async () => {
    // The configuration names the rules by their path in the container; check it with them beside it.
    const { stdout } = await run(promtool, ['check', 'config', '--syntax-only', join(root, 'deploy/compose/prometheus.yml')]);
    expect(stdout).toMatch(/SUCCESS/);
  });
});
