/**
 * Puts several `npm run bench` runs of the same targets together, e.g. one round each (`--rounds 1
 * --first-round N`, so that each run's order goes on from the last one's), as if they were one run:
 * the medians over all their rounds and, with `--pairs`, each pair's ratio round by round.
 *
 *   node scripts/bench/merge.ts run-1.json run-2.json ... [--pairs redis:redis-noceilings] [--out merged.json]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { comparePairs, formatPairs, formatSummary, summarize, type Row } from './report.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { pairs: { type: 'string' }, out: { type: 'string' } } });
interface Run {
  readonly commit: string;
  readonly machine: { readonly loadavgBefore: readonly number[] };
  readonly rows: Row[];
  readonly summary: readonly { readonly target: string }[];
}
const runs = positionals.map((path) => JSON.parse(readFileSync(path, 'utf8')) as Run);
if (runs.length === 0) throw new Error('give the JSON files of the runs to put together');
const targets = runs[0]!.summary.map((s) => s.target);
const rows = runs.flatMap((run) => run.rows);
const rounds = new Set(rows.map((r) => r.round));
if (rounds.size !== rows.filter((r) => r.target === targets[0]).length) throw new Error('two runs measured the same round number: give each its own --first-round');
const pairs = (values.pairs?.split(',') ?? []).map((pair) => pair.split(':') as [string, string]);
const summary = summarize(rows, targets);
console.log(`${runs.length} runs, ${rounds.size} rounds (commits ${[...new Set(runs.map((r) => r.commit))].join(', ')}; load averages before each: ${runs.map((r) => r.machine.loadavgBefore[0]).join(' ')})`);
console.log(formatSummary(summary));
if (pairs.length > 0) console.log(`\npairs, CPU per chat of the same round (median over rounds):\n${formatPairs(comparePairs(rows, pairs))}`);
if (values.out !== undefined) writeFileSync(values.out, `${JSON.stringify({ runs: positionals, summary, ...(pairs.length > 0 && { pairs: comparePairs(rows, pairs) }), rows }, null, 2)}\n`);
