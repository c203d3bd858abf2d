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
 */
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = resolve(ROOT, 'dist');

/** Files the service reads at run time relative to its modules, copied next to the emitted code. */
const ASSETS: readonly { from: string; filter?: (path: string) => boolean }[] = [
  { from: 'config' },
  // The playground's page, styles and scripts; its .d.ts files are for the type checker only.
  { from: 'src/http/playground', filter: (path) => !path.endsWith('.ts') },
  { from: 'src/local/data' },
];

/** Emits dist/ afresh (the tests' global setup calls it too, so they run what `npm start` runs). */
export function buildDist(): void {
  rmSync(OUT, { recursive: true, force: true });
  // Under this same Node (the pinned one), whatever `node` comes first on PATH.
  execFileSync(process.execPath, [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', resolve(ROOT, 'tsconfig.build.json'), '--noCheck'], { stdio: 'inherit' });
  for (const asset of ASSETS) {
    cpSync(resolve(ROOT, asset.from), resolve(OUT, asset.from), { recursive: true, ...(asset.filter && { filter: asset.filter }) });
  }
}

if (import.meta.main) buildDist();
