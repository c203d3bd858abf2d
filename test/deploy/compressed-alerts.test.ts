/**
 * The time-compressed rules the on-call test evaluates (test/helpers/compressed-alerts.ts) are the
 * shipped deploy/prometheus/alerts.yml with only their durations divided: same alerts, same
 * expressions once range selectors are blanked, same labels and annotations, every window and
 * `for:` exactly 1/60 of the original, and the one documented age threshold divided likewise.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  AGE_THRESHOLDS,
  ALERTS_FILE,
  TIME_COMPRESSION,
  compressAlertRules,
  compressedShippedRules,
  durationSeconds,
  formatDuration,
  withoutRanges,
  type RuleGroup,
} from '../helpers/compressed-alerts.ts';

const shipped = (parse(readFileSync(ALERTS_FILE, 'utf8')) as { groups: RuleGroup[] }).groups;
const compressed = compressedShippedRules();
const ranges = (expr: string) => [...expr.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]!);

describe('the time-compressed alert rules of the on-call test', () => {
  it('read durations as Prometheus does', () => {
    expect(durationSeconds('10m')).toBe(600);
    expect(durationSeconds('1h30m')).toBe(5_400);
    expect(durationSeconds('500ms')).toBe(0.5);
    expect(formatDuration(360)).toBe('360s');
    expect(formatDuration(0.5)).toBe('500ms');
    expect(() => durationSeconds('10 m')).toThrow(/not a Prometheus duration/);
  });

  it('keep every alert, group, label and annotation of deploy/prometheus/alerts.yml', () => {
    expect(compressed.map((g) => g.name)).toEqual(shipped.map((g) => g.name));
    const pairs = shipped.flatMap((g, i) => g.rules.map((rule, j) => [rule, compressed[i]!.rules[j]!] as const));
    expect(pairs.length).toBeGreaterThanOrEqual(19);
    for (const [original, copy] of pairs) {
      expect(copy.alert).toBe(original.alert);
      expect(copy.labels).toEqual(original.labels);
      expect(copy.annotations).toEqual(original.annotations);
      expect(Object.keys(copy).sort()).toEqual(Object.keys(original).sort());
    }
  });

  it('divide every range and for: by the factor, and change nothing else but the documented age threshold', () => {
    const pairs = shipped.flatMap((g, i) => g.rules.map((rule, j) => [rule, compressed[i]!.rules[j]!] as const));
    for (const [original, copy] of pairs) {
      const before = ranges(original.expr).map(durationSeconds);
      expect(before.length, original.alert).toBeGreaterThanOrEqual(original.alert.match(/TargetDown|Absent|Backlog|EventLoopLag|HeapNearCeiling/) ? 0 : 1);
      expect(ranges(copy.expr).map(durationSeconds), original.alert).toEqual(before.map((s) => s / TIME_COMPRESSION));
      if (original.for !== undefined) expect(durationSeconds(copy.for!), original.alert).toBe(durationSeconds(original.for) / TIME_COMPRESSION);
      const age = AGE_THRESHOLDS[original.alert];
      const expected = age === undefined ? withoutRanges(original.expr) : withoutRanges(original.expr).replace(`> ${age}`, `> ${age / TIME_COMPRESSION}`);
      expect(withoutRanges(copy.expr), original.alert).toBe(expected);
    }
    // The one changed threshold is an age in seconds (a duration), compressed like the windows.
    expect(Object.keys(AGE_THRESHOLDS)).toEqual(['ChatAdapterHandoffBacklog']);
    const backlog = compressed.flatMap((g) => g.rules).find((r) => r.alert === 'ChatAdapterHandoffBacklog')!;
    expect(backlog.expr.trim()).toBe('max by (environment, instance, store) (chat_adapter_handoff_oldest_undelivered_age_seconds) > 5');
  });

  it('refuse a rule file whose age threshold is not where it is expected', () => {
    const text = readFileSync(ALERTS_FILE, 'utf8').replace('chat_adapter_handoff_oldest_undelivered_age_seconds) > 300', 'chat_adapter_handoff_oldest_undelivered_age_seconds) > 600');
    expect(() => compressAlertRules(text)).toThrow(/ChatAdapterHandoffBacklog: expected one "> 300"/);
  });
});
