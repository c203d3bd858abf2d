/**
 * Prometheus's own checker on the scrape configuration and the alerting rules of deploy/, and its
 * rule unit tests (deploy/prometheus/alerts.test.yml: every alert fires on its failure, none on a
 * quiet healthy instance). promtool comes from PATH, or from Debian's `prometheus` package unpacked
 * into .cache/prometheus (fetched once, like the Redis tests' redis-server); without either the
 * test fails with one line saying why (offline, no package lists) and what to install.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/debian-packages.ts';
import { locatePrometheusProgram } from '../helpers/prometheus-binaries.ts';

const root = resolve(import.meta.dirname, '../..');

describe('promtool on deploy/', () => {
  let promtool: string;
  beforeAll(async () => {
    promtool = await locatePrometheusProgram('promtool');
  }, 300_000);

  it('accepts the alerting rules', async () => {
    const file = join(root, 'deploy/prometheus/alerts.yml');
    const { stdout } = await run(promtool, ['check', 'rules', file]);
    // Every rule of the file is found (none dropped as malformed).
    const rules = readFileSync(file, 'utf8').match(/^ {6}- alert: /gm)?.length ?? 0;
    expect(rules).toBeGreaterThanOrEqual(19);
    expect(stdout).toContain(`SUCCESS: ${rules} rules found`);
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

  it('says in one line why, when promtool is nowhere and the package cannot be fetched (offline)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-promtool-'));
    try {
      // An apt-get that fails as it does without a network, first in a PATH that has no promtool.
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      const failing = "#!/bin/sh\necho \"E: Failed to fetch http://deb.debian.org/debian/pool/main/p/prometheus.deb  Temporary failure resolving 'deb.debian.org'\" >&2\nexit 100\n";
      writeFileSync(join(bin, 'apt-get'), failing, { mode: 0o755 });
      const env = { ...process.env, PATH: `${bin}:/usr/bin:/bin` };
      const failure = await locatePrometheusProgram('promtool', { cacheDir: join(dir, 'cache'), env }).then(
        () => undefined,
        (err: Error) => err,
      );
      expect(failure?.message).toMatch(/^promtool is needed: .*the Debian package archive cannot be reached \(offline\?\).*; install it/);
      expect(failure?.message).not.toContain('\n');
      expect(failure?.stack).toBe(failure?.message);
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
