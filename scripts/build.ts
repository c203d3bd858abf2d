/**
 * `npm run build` (and `npm start`, whose `prestart` it is): the service as plain JavaScript in
 * `dist/`, the layout of the repository kept (dist/src, dist/steps, dist/schemas), so that every
 * path a module finds from its own location (config/, the playground's files, the local stack's
 * data) is copied beside it.
 *
 * Why not run the .ts files as `npm run dev` and the tests do: Node strips their types at load time
 * with a TypeScript compiler of its own (amaro, a WebAssembly build of swc) that then stays in
 * memory, about 20 MiB of a process that idles at about 105 MiB without it (docs/performance.md).
 * The emitted code is the same statements with the types erased (erasableSyntaxOnly): what runs is
 * what the tests ran. Types are checked by `npm test`, not here (`--noCheck`: about 0.5 s).
 *
 * `npm start` may run while another instance of the same checkout serves from dist/ (a second
 * instance, a restart next to the old process): dist/ is never deleted under it. The build is
 * skipped when dist/ was built from the same sources (a fingerprint of every input's path, size and
 * modification time); otherwise it is emitted into a fresh folder beside dist/ and swapped in with two
 * renames, so a running instance that loads a module late finds either the old build or the new one,
 * never a half-written or missing one.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = resolve(ROOT, 'dist');
const STAMP = '.build-fingerprint';

/** Files the service reads at run time relative to its modules, copied next to the emitted code. */
const ASSETS: readonly { from: string; filter?: (path: string) => boolean }[] = [
  { from: 'config' },
  // The playground's page, styles and scripts; its .d.ts files are for the type checker only.
  { from: 'src/http/playground', filter: (path) => !path.endsWith('.ts') },
  { from: 'src/local/data' },
  // The Redis scripts, kept as .lua files and read when their modules load.
  { from: 'src/turns/lua' },
  { from: 'src/idempotency/lua' },
  { from: 'src/streams/lua' },
];

/** Everything the build reads: a change to any of them makes the next `npm start` build again. */
const INPUTS = ['src', 'steps', 'schemas', 'config', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function fingerprint(): string {
  const hash = createHash('sha256');
  const visit = (path: string) => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (stat === undefined) return;
    if (stat.isDirectory()) {
      for (const name of readdirSync(path).sort()) visit(join(path, name));
      return;
    }
    hash.update(`${path.slice(ROOT.length)}\0${stat.size}\0${stat.mtimeMs}\n`);
  };
  for (const input of INPUTS) visit(resolve(ROOT, input));
  return hash.digest('hex');
}

const builtFrom = (): string | undefined => {
  const stamp = join(OUT, STAMP);
  return existsSync(stamp) ? readFileSync(stamp, 'utf8') : undefined;
};

/** Emits dist/ unless it is up to date (the tests' global setup calls it too, so they run what `npm start` runs). */
export function buildDist(): void {
  const sources = fingerprint();
  if (builtFrom() === sources) return;
  const fresh = `${OUT}.${process.pid}.new`;
  const old = `${OUT}.${process.pid}.old`;
  rmSync(fresh, { recursive: true, force: true });
  try {
    // Under this same Node (the pinned one), whatever `node` comes first on PATH.
    execFileSync(process.execPath, [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', resolve(ROOT, 'tsconfig.build.json'), '--noCheck', '--outDir', fresh], { stdio: 'inherit' });
    for (const asset of ASSETS) {
      cpSync(resolve(ROOT, asset.from), resolve(fresh, asset.from), { recursive: true, ...(asset.filter && { filter: asset.filter }) });
    }
    writeFileSync(join(fresh, STAMP), sources);
    if (existsSync(OUT)) renameSync(OUT, old);
    renameSync(fresh, OUT);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

if (import.meta.main) buildDist();
