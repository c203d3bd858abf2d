/**
 * Accuracy of detectLanguage on the labelled set test/language/language-eval.json (en / es / unknown;
 * written before the code, then used while developing it) and on language-holdout.json (written after
 * the code and never tuned against).
 * Run: npx node scripts/eval-language.ts [--misses]
 */
import { readFileSync } from 'node:fs';
import { detectLanguage, type DetectedLanguage } from '../src/language/detect-language.ts';

export interface LanguageCase { text: string; lang: DetectedLanguage }

export function loadLanguageCases(file = 'language-eval.json'): LanguageCase[] {
  return JSON.parse(readFileSync(new URL(`../test/language/${file}`, import.meta.url), 'utf8')) as LanguageCase[];
}

export function evaluateLanguage(cases: LanguageCase[] = loadLanguageCases()): { accuracy: number; perLabel: Record<DetectedLanguage, { right: number; total: number }>; misses: string[] } {
  const perLabel: Record<DetectedLanguage, { right: number; total: number }> = { en: { right: 0, total: 0 }, es: { right: 0, total: 0 }, unknown: { right: 0, total: 0 } };
  const misses: string[] = [];
  for (const c of cases) {
    const got = detectLanguage(c.text);
    perLabel[c.lang].total++;
    if (got === c.lang) perLabel[c.lang].right++;
    else misses.push(`got ${got} want ${c.lang} | ${c.text}`);
  }
  return { accuracy: (cases.length - misses.length) / cases.length, perLabel, misses };
}

function report(title: string, cases: LanguageCase[], misses: boolean): void {
  const started = performance.now();
  const result = evaluateLanguage(cases);
  const ms = performance.now() - started;
  console.log(`${title}: ${cases.length} messages, accuracy ${result.accuracy.toFixed(3)}, ${(ms / cases.length).toFixed(3)} ms per message`);
  for (const [label, s] of Object.entries(result.perLabel)) console.log(`  ${label.padEnd(8)} ${s.right}/${s.total}`);
  if (misses) for (const miss of result.misses) console.log(`  ${miss}`);
}

if (import.meta.main) {
  const misses = process.argv.includes('--misses');
  report('development set', loadLanguageCases(), misses);
  report('held-out set', loadLanguageCases('language-holdout.json'), misses);
}
