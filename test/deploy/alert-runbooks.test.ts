/**
 * Every alert an on-call may receive says where to look and what to do: a `runbook_url` to a
 * section of docs/operations.md that exists, a description naming the instance and the
 * environment, a severity the routing knows, and unit tests in alerts.test.yml that make it fire
 * and keep it quiet on a healthy, quiet instance (promtool.test.ts runs them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, anchorsOf } from '../docs/tracked-files.ts';

interface Rule {
  readonly alert: string;
  readonly expr: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}
interface RuleTest {
  readonly alertname: string;
  readonly exp_alerts: readonly unknown[];
}
interface TestGroup {
  readonly name: string;
  readonly alert_rule_test: readonly RuleTest[];
}

const rules = (parse(readFileSync(join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const unitTests = (parse(readFileSync(join(ROOT, 'deploy/prometheus/alerts.test.yml'), 'utf8')) as { tests: TestGroup[] }).tests;
const runbookAnchors = anchorsOf(readFileSync(join(ROOT, 'docs/operations.md'), 'utf8'));

/** Alerts about the whole service, not one instance: no instance to name. */
const SERVICE_WIDE = new Set(['ChatAdapterAbsent']);

describe('alerts an on-call can act on', () => {
  it('finds the alerts', () => {
    expect(rules.length).toBeGreaterThanOrEqual(19);
    expect(new Set(rules.map((r) => r.alert)).size).toBe(rules.length);
  });

  it('gives every alert a runbook_url to a section of docs/operations.md that exists', () => {
    const problems = rules.flatMap((rule) => {
      const url = rule.annotations?.['runbook_url'];
      const match = /^docs\/operations\.md#([a-z0-9-]+)$/.exec(url ?? '');
      if (match === null) return [`${rule.alert}: runbook_url ${url} is not docs/operations.md#<anchor>`];
      return runbookAnchors.has(match[1]!) ? [] : [`${rule.alert}: docs/operations.md has no section #${match[1]}`];
    });
    expect(problems).toEqual([]);
  });

  it('names the instance and the environment in every description, and routes by a known severity', () => {
    for (const rule of rules) {
      expect(['page', 'ticket'], rule.alert).toContain(rule.labels?.['severity']);
      const description = rule.annotations?.['description'] ?? '';
      expect(description.length, rule.alert).toBeGreaterThan(40);
      if (SERVICE_WIDE.has(rule.alert)) continue;
      expect(description, rule.alert).toContain('{{ $labels.instance }}');
      expect(description, rule.alert).toContain('{{ $labels.environment }}');
    }
  });

  it('selects chats under any ROUTE_PREFIX, never the plain route alone', () => {
    for (const rule of rules) expect(rule.expr, rule.alert).not.toMatch(/route="\/chat_adapter"/);
    expect(rules.find((r) => r.alert === 'ChatAdapterHighErrorRatio')!.expr).toContain('route=~".*/chat_adapter"');
  });

  it('has a unit test that makes every alert fire, and a quiet healthy instance on which none fires', () => {
    const quiet = unitTests[0]!;
    expect(quiet.name).toMatch(/quiet, healthy/);
    for (const rule of rules) {
      expect(quiet.alert_rule_test.filter((t) => t.alertname === rule.alert && t.exp_alerts.length === 0).length, `${rule.alert} quiet`).toBeGreaterThanOrEqual(3);
      const fires = unitTests.slice(1).some((g) => g.alert_rule_test.some((t) => t.alertname === rule.alert && t.exp_alerts.length > 0));
      expect(fires, `${rule.alert} fires`).toBe(true);
    }
  });
});
