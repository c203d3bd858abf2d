/**
 * recheck's verdict on each pattern: `safe`, `vulnerable` (super-linear backtracking, with an attack
 * string) or `unknown`. Its exact automaton checker runs first; a pattern it cannot finish in time
 * (large Unicode classes, `\b` with flags) goes to its fuzz checker. Proving a pattern safe costs
 * from a few ms to a few seconds, so `safe` verdicts are kept in .cache/ (ignored by git), keyed by
 * recheck's version, the settings and the exact pattern: a new or changed pattern is always checked,
 * an unchanged one is not checked twice. Vulnerable and unknown verdicts are never kept.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { check, type Diagnostics, type Parameters } from 'recheck';
import { ROOT } from './regex-inventory.ts';

const SETTINGS: Parameters = {
  timeout: 8_000,
  // Smaller fuzzing generations than the defaults: enough for the patterns of a chat service, and a
  // cold run (no cache) stays well under a minute on two busy cores.
  maxIteration: 3,
  maxInitialGenerationSize: 100,
  maxGenerationSize: 30,
  crossoverSize: 10,
  mutationSize: 20,
};
const CONCURRENCY = 2;

const version = (createRequire(import.meta.url)('recheck/package.json') as { version: string }).version;
const CACHE_FILE = join(ROOT, '.cache', 'regex-safety', `recheck-${version}.json`);
const settingsKey = JSON.stringify(SETTINGS);

type SafeCache = Record<string, true>;

function loadCache(): SafeCache {
  try {
    const parsed = JSON.parse(readFileSync(CACHE_FILE, 'utf8')) as { settings?: string; safe?: unknown };
    if (parsed.settings !== settingsKey || typeof parsed.safe !== 'object' || parsed.safe === null) return Object.create(null) as SafeCache;
    return Object.assign(Object.create(null) as SafeCache, parsed.safe);
  } catch {
    return Object.create(null) as SafeCache;
  }
}

function saveCache(safe: SafeCache): void {
  mkdirSync(join(CACHE_FILE, '..'), { recursive: true });
  writeFileSync(CACHE_FILE, JSON.stringify({ settings: settingsKey, safe }));
}

export type Verdict =
  | { readonly status: 'safe'; readonly cached: boolean }
  | { readonly status: 'vulnerable'; readonly complexity: string; readonly attack: string }
  | { readonly status: 'unknown'; readonly error: string };

function verdictOf(d: Diagnostics): Verdict {
  if (d.status === 'safe') return { status: 'safe', cached: false };
  if (d.status === 'vulnerable') return { status: 'vulnerable', complexity: d.complexity.summary, attack: d.attack.pattern };
  return { status: 'unknown', error: String((d.error as { kind?: string }).kind ?? d.error) };
}

async function checkOne(source: string, flags: string): Promise<Verdict> {
  const exact = verdictOf(await check(source, flags, SETTINGS));
  if (exact.status !== 'unknown') return exact;
  return verdictOf(await check(source, flags, { ...SETTINGS, checker: 'fuzz' }));
}

/** The verdict on each distinct `[source, flags]`, checked two at a time. */
export async function verdicts(patterns: ReadonlyArray<{ source: string; flags: string }>): Promise<Map<string, Verdict>> {
  const cache = loadCache();
  const keys = [...new Set(patterns.map((p) => JSON.stringify([p.source, p.flags])))];
  const result = new Map<string, Verdict>();
  const queue = keys.filter((key) => {
    if (cache[key] !== true) return true;
    result.set(key, { status: 'safe', cached: true });
    return false;
  });
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      const [source, flags] = JSON.parse(key) as [string, string];
      const verdict = await checkOne(source, flags);
      result.set(key, verdict);
      if (verdict.status === 'safe') cache[key] = true;
    }
  }));
  saveCache(cache);
  return result;
}

export const patternKey = (p: { source: string; flags: string }): string => JSON.stringify([p.source, p.flags]);
