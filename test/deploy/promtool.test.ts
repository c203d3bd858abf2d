/**
 * Prometheus's own checker on the scrape configuration and the alerting rules of deploy/, and its
 * rule unit tests (deploy/prometheus/alerts.test.yml: every alert fires on its failure, none on a
 * quiet healthy instance). promtool comes from PATH, or from Debian's `prometheus` package unpacked
 * into .cache/prometheus (fetched once, like the Redis tests' redis-server); without either the
 * test fails with one line saying why (offline, no package lists) and what to install.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
      const cause = firstLine(err);
      const offline = /could not resolve|temporary failure|unable to connect|network is unreachable|failed to fetch/i.test(cause) ? 'no network? ' : '';
      // One line, so that the reason reaches the summary of the run rather than a stack trace.
      const failure = new Error(
        `promtool is needed: none is on PATH and Debian's prometheus package could not be fetched (${offline}apt-get: ${cause}); install it ("apt-get install prometheus") or put promtool on PATH`,
      );
      failure.stack = failure.message;
      throw failure;
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
    const { stdout } = await run(promtool, ['check', 'rules', join(root, 'deploy/prometheus/alerts.yml')]);
    expect(stdout).toMatch(/SUCCESS: 18 rules found/);
  });

  it('passes the rule unit tests: each alert fires on its failure, none on a quiet healthy instance', async () => {
    const { stdout } = await run(promtool, ['test', 'rules', join(root, 'deploy/prometheus/alerts.test.yml')]).catch((err: { stdout?: string; stderr?: string }) => {
      throw new Error(`promtool test rules failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    });
    expect(stdout).toMatch(/SUCCESS/);
  });

  it('parses every query of the dashboard (each as a recording rule, its template variables as regexes)', async () => {
    const dashboard = JSON.parse(readFileSync(join(root, 'deploy/grafana/chat-adapter-dashboard.json'), 'utf8')) as { panels: { targets?: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr.replaceAll('$environment', '.*').replaceAll('$instance', '.*')));
    expect(exprs.length).toBeGreaterThan(20);
    const rules = { groups: [{ name: 'dashboard', rules: exprs.map((expr, i) => ({ record: `dashboard:query_${i}`, expr })) }] };
    const dir = mkdtempSync(join(tmpdir(), 'dashboard-rules-'));
    try {
      // JSON is YAML: promtool reads it as a rules file.
      writeFileSync(join(dir, 'rules.yml'), JSON.stringify(rules));
      const { stdout } = await run(promtool, ['check', 'rules', join(dir, 'rules.yml')]).catch((err: { stdout?: string; stderr?: string }) => {
        throw new Error(`a dashboard query does not parse:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
      });
      expect(stdout).toContain(`SUCCESS: ${exprs.length} rules found`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('accepts the compose stack scrape configuration (with its rules file)', async () => {
    // The configuration names the rules by their path in the container; check it with them beside it.
    const { stdout } = await run(promtool, ['check', 'config', '--syntax-only', join(root, 'deploy/compose/prometheus.yml')]);
    expect(stdout).toMatch(/SUCCESS/);
  });
});
