/**
 * The import map of the service's code (src/, steps/, schemas/) keeps the shape docs/architecture.md
 * draws: no import loop (type-only imports count: a loop of types is still two files that cannot be
 * read one after the other), and no arrow back up (a step reaching a concrete store, the pipeline
 * reaching an implementation, a party's client reaching the HTTP layer).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const CODE_FOLDERS = ['src', 'steps', 'schemas'];

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
    .map((path) => join(folder, path).split('\\').join('/'));
}

/**
 * The specifiers of a module's static imports and re-exports (`import ... from`, `export ... from`,
 * `import '...'`, statements that open a line) and of its dynamic `import('...')`s.
 */
export function specifiersOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm)) found.push(match[1]!);
  for (const match of source.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) found.push(match[1]!);
  for (const match of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push(match[1]!);
  return found;
}

/** File -> the repository files it imports (relative specifiers), and the packages it names. */
function importMap(): Map<string, { files: string[]; packages: string[] }> {
  const map = new Map<string, { files: string[]; packages: string[] }>();
  for (const file of CODE_FOLDERS.flatMap(sourceFiles)) {
    const files: string[] = [];
    const packages: string[] = [];
    for (const fileName of specifiersOf(readFileSync(join(ROOT, file), 'utf8'))) {
      if (fileName.startsWith('.')) files.push(relative(ROOT, resolve(ROOT, dirname(file), fileName)).split('\\').join('/'));
      else if (!fileName.startsWith('node:')) packages.push(fileName);
    }
    map.set(file, { files, packages });
  }
  return map;
}

/** `schemas`, `steps`, `src/<folder>` or `src/<file>`: the unit docs/architecture.md's folder table speaks of. */
function areaOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'src') return parts[0]!;
  return parts.length > 2 ? `src/${parts[1]}` : file;
}

/** Strongly connected components with more than one file (Tarjan), or a file importing itself. */
function importLoops(map: Map<string, { files: string[] }>): string[][] {
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (file: string): void => {
    indexOf.set(file, index);
    low.set(file, index);
    index++;
    stack.push(file);
    onStack.add(file);
    for (const next of map.get(file)?.files ?? []) {
      if (!map.has(next)) continue;
      if (!indexOf.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, indexOf.get(next)!));
      }
    }
    if (low.get(file) !== indexOf.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (map.get(file)?.files ?? []).includes(file)) loops.push(component.sort());
  };
  for (const file of map.keys()) if (!indexOf.has(file)) visit(file);
  return loops;
}

const map = importMap();
const edges = [...map].flatMap(([from, { files }]) => files.map((to) => ({ from, to })));

/** Every import from a file of `fromArea` to a file outside `allowed` areas (its own always allowed). */
function outside(fromArea: string, allowed: readonly string[]): string[] {
  return edges
    .filter(({ from, to }) => areaOf(from) === fromArea && areaOf(to) !== fromArea && !allowed.includes(areaOf(to)) && !allowed.includes(to))
    .map(({ from, to }) => `${from} -> ${to}`);
}

/** Every import of a file of `area` from outside the `from` areas. */
function reachedFrom(area: string, from: readonly string[]): string[] {
  return edges
    .filter(({ from: f, to }) => areaOf(to) === area && areaOf(f) !== area && !from.includes(areaOf(f)))
    .map(({ from: f, to }) => `${f} -> ${to}`);
}

const PURE = ['src/contacts', 'src/reply', 'src/language', 'src/text', 'src/errors.ts'];

describe('the import map', () => {
  it('reads every file of src/, steps/ and schemas/', () => {
    expect(map.size).toBeGreaterThan(150);
    expect(map.has('src/app.ts') && map.has('steps/ask-engine.ts') && map.has('schemas/chat-request.schema.ts')).toBe(true);
  });

  it('has no import loop', () => {
    expect(importLoops(map)).toEqual([]);
  });

  it('reads imports and re-exports over several lines, side-effect and dynamic imports', () => {
    const source = "import {\n  a,\n  type B,\n} from './a.ts';\nexport type { C } from '../c.ts';\nimport './side.ts';\nconst d = await import('./d.ts');\n// not an import: from './e.ts'\n";
    expect(specifiersOf(source)).toEqual(['./a.ts', '../c.ts', './side.ts', './d.ts']);
  });

  it('finds a loop when there is one (the check itself)', () => {
    const looped = new Map([
      ['a.ts', { files: ['b.ts'] }],
      ['b.ts', { files: ['c.ts'] }],
      ['c.ts', { files: ['a.ts'] }],
      ['d.ts', { files: ['a.ts'] }],
    ]);
    expect(importLoops(looped)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });

  it('schemas/ import nothing of the service', () => {
    expect(outside('schemas', [])).toEqual([]);
  });

  it('the pipeline imports only schemas/ and the error classes: the ports are its own', () => {
    expect(outside('src/pipeline', ['schemas', 'src/errors.ts'])).toEqual([]);
  });

  it('a step imports the pipeline, schemas/ and pure modules, never a client, store, Fastify or Redis', () => {
    expect(outside('steps', ['schemas', 'src/pipeline', ...PURE, 'src/cache/reuse-policy.ts'])).toEqual([]);
    const packages = [...map].filter(([file]) => areaOf(file) === 'steps').flatMap(([file, { packages: p }]) => p.map((name) => `${file} -> ${name}`));
    expect(packages.filter((line) => /-> (fastify|@fastify\/|ioredis|undici|bullmq)/.test(line))).toEqual([]);
  });

  it('the pure modules import only each other, schemas/ and libraries', () => {
    for (const area of ['src/contacts', 'src/reply', 'src/language', 'src/text']) expect(outside(area, ['schemas', ...PURE])).toEqual([]);
  });

  it('the HTTP layer is reached only from the app and start-up', () => {
    expect(reachedFrom('src/http', ['src/app.ts', 'src/compose.ts', 'src/start-service.ts'])).toEqual([]);
  });

  it('the steps are run only by the HTTP layer (the pipeline runner is handed them)', () => {
    expect(reachedFrom('steps', ['src/http'])).toEqual([]);
  });

  it('the reference parties are loaded only by compose.ts', () => {
    expect(reachedFrom('src/local', ['src/compose.ts'])).toEqual([]);
  });
});
