/**
 * A time-compressed copy of deploy/prometheus/alerts.yml for the on-call test
 * (test/deploy/oncall-alerts.oncall.ts): every range selector (`[10m]`) and every `for:` divided by
 * one factor (60: minutes become seconds), and nothing else changed but the one threshold that is a
 * duration itself (below). The expressions, labels and annotations are otherwise those shipped, so a
 * real Prometheus evaluating the copy proves the shipped rules in seconds instead of hours.
 * test/deploy/compressed-alerts.test.ts checks that the copy differs from the original only so.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export const ALERTS_FILE = join(resolve(import.meta.dirname, '../..'), 'deploy/prometheus/alerts.yml');

/** Minutes become seconds: `[10m]` is `[10s]`, `for: 15m` is `for: 15s`, `[6h]` is `[360s]`. */
export const TIME_COMPRESSION = 60;

export interface AlertRule {
  readonly alert: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

export interface RuleGroup {
  readonly name: string;
  readonly rules: readonly AlertRule[];
}

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800, y: 31_536_000 };
const DURATION = /^(?:\d+(?:ms|[smhdwy]))+$/;
/** A range selector's duration: `[5m]`, `[1h30m]` (no subquery is used in the rules). */
const RANGE = /\[((?:\d+(?:ms|[smhdwy]))+)\]/g;

/** Seconds of a Prometheus duration (`1h30m`, `5m`, `500ms`). */
export function durationSeconds(text: string): number {
  if (!DURATION.test(text)) throw new Error(`not a Prometheus duration: ${text}`);
  let seconds = 0;
  for (const [, value, unit] of text.matchAll(/(\d+)(ms|[smhdwy])/g)) seconds += Number(value) * UNIT_SECONDS[unit!]!;
  return seconds;
}

/** A duration as Prometheus reads it: whole seconds (`360s`), else milliseconds. */
export function formatDuration(seconds: number): string {
  if (Number.isInteger(seconds)) return `${seconds}s`;
  const ms = Math.round(seconds * 1000);
  if (ms < 1) throw new Error(`${seconds} s is below Prometheus's millisecond resolution`);
  return `${ms}ms`;
}

export function compressDuration(text: string, factor: number): string {
  return formatDuration(durationSeconds(text) / factor);
}

/**
 * Thresholds compared with an age in seconds: left as they are, they would need the real minutes of
 * waiting however the windows are compressed, so they are divided by the factor too. Only
 * ChatAdapterHandoffBacklog has one: the oldest undelivered handoff older than 300 s (5 s here).
 * Every other threshold is unchanged (latencies of one operation, ratios, per-second rates).
 */
export const AGE_THRESHOLDS: Readonly<Record<string, number>> = { ChatAdapterHandoffBacklog: 300 };

/** The rules of `text` (alerts.yml), time-compressed by `factor`. */
export function compressAlertRules(text: string, factor = TIME_COMPRESSION): RuleGroup[] {
  const { groups } = parse(text) as { groups: RuleGroup[] };
  return groups.map((group) => ({
    ...group,
    rules: group.rules.map((rule) => {
      let expr = rule.expr.replace(RANGE, (_all, duration: string) => `[${compressDuration(duration, factor)}]`);
      const age = AGE_THRESHOLDS[rule.alert];
      if (age !== undefined) {
        const threshold = `> ${age}`;
        if (expr.split(threshold).length !== 2) throw new Error(`${rule.alert}: expected one "${threshold}" in its expression`);
        expr = expr.replace(threshold, `> ${age / factor}`);
      }
      return { ...rule, expr, ...(rule.for === undefined ? {} : { for: compressDuration(rule.for, factor) }) };
    }),
  }));
}

/** The shipped rules, compressed. */
export function compressedShippedRules(factor = TIME_COMPRESSION): RuleGroup[] {
  return compressAlertRules(readFileSync(ALERTS_FILE, 'utf8'), factor);
}

/** An expression with every range selector's duration blanked: what compression must leave unchanged. */
export function withoutRanges(expr: string): string {
  return expr.replace(RANGE, '[_]');
}
