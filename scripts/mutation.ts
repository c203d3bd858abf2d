/**
 * `npm run test:mutation [-- group ...]`: StrykerJS over each group of stryker/groups.ts (all by
 * default), one after another, then one line per group with its mutation score. Incremental: a
 * re-run mutates only the code and tests that changed since that group's last report
 * (reports/mutation/<group>/, git-ignored). `--force` mutates everything again.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { GROUPS } from '../stryker/groups.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values, positionals } = parseArgs({ options: { force: { type: 'boolean', default: false } }, allowPositionals: true });
const known = Object.keys(GROUPS);
const chosen = positionals.length > 0 ? positionals : known;
const unknown = chosen.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  console.error(`unknown group ${unknown.join(', ')}; groups: ${known.join(', ')}`);
  process.exit(2);
}

interface MutantResult { readonly status: string }
interface Report { readonly files: Record<string, { readonly mutants: readonly MutantResult[] }> }

/** Killed or timed out over every mutant that ran (no coverage counts as survived), as Stryker scores it. */
function score(report: Report): { mutants: number; detected: number; survived: number } {
  const all = Object.values(report.files).flatMap((file) => file.mutants);
  const detected = all.filter((m) => m.status === 'Killed' || m.status === 'Timeout').length;
  const survived = all.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage').length;
  return { mutants: detected + survived, detected, survived };
}

const lines: string[] = [];
let failed = false;
for (const name of chosen) {
  const args = ['stryker', 'run', 'stryker.config.mjs', ...(values.force ? ['--force'] : [])];
  const run = spawnSync('npx', args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, MUTATION_GROUP: name } });
  const reportFile = resolve(ROOT, `reports/mutation/${name}/report.json`);
  if (run.status !== 0 || !existsSync(reportFile)) {
    lines.push(`${name.padEnd(12)} stryker failed (exit ${run.status ?? run.signal})`);
    failed = true;
    continue;
  }
  const { mutants, detected, survived } = score(JSON.parse(readFileSync(reportFile, 'utf8')) as Report);
  const pct = mutants === 0 ? 100 : (100 * detected) / mutants;
  lines.push(`${name.padEnd(12)} ${pct.toFixed(1).padStart(5)} %  ${detected}/${mutants} killed, ${survived} survived  (reports/mutation/${name}/index.html)`);
}
console.log(`\nmutation scores\n${lines.join('\n')}`);
process.exit(failed ? 1 : 0);
