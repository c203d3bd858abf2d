/**
 * Where a CPU profile spent its time: self time by function and by module (a package, or a file
 * of this repository), and inclusive time of this repository's functions.
 *
 *   npm run bench -- --cpu-prof --variants tracing --rounds 1
 *   node scripts/bench/profile-top.ts bench-results/profiles/tracing-round1.cpuprofile [--top 40]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '30' } } });
const top = Number(values.top);
const profile = JSON.parse(readFileSync(positionals[0] ?? '', 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

function moduleOf(url: string): string {
  if (url === '') return '(native/v8)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const local = /\/(src|steps|schemas)\/(.*)$/.exec(url);
  return local ? `${local[1]}/${local[2]}` : url;
}
const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${moduleOf(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

function add(map: Map<string, number>, key: string, us: number): void {
  map.set(key, (map.get(key) ?? 0) + us);
}
const selfByFunction = new Map<string, number>();
const selfByModule = new Map<string, number>();
const inclusiveLocal = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  add(selfByFunction, label(node), us);
  add(selfByModule, moduleOf(node.callFrame.url), us);
  // Inclusive time of this repository's functions: each counted once per sample, however deep.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const n = byId.get(cur)!;
    if (/\/(src|steps|schemas)\//.test(n.callFrame.url) && !n.callFrame.url.includes('node_modules')) {
      const key = label(n);
      if (!seen.has(key)) {
        seen.add(key);
        add(inclusiveLocal, key, us);
      }
    }
  }
}

function print(title: string, map: Map<string, number>): void {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((us / total) * 100).toFixed(1).padStart(6)}%  ${key}`);
  }
}
console.log(`${(total / 1e6).toFixed(2)} s sampled`);
print('self time by module', selfByModule);
print('self time by function', selfByFunction);
print("inclusive time of this repository's functions", inclusiveLocal);
