/**
 * The README is what a newcomer reads in ten minutes: short, and the way into every document.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

describe('README.md', () => {
  it('stays at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
  });

  it('links every document in docs/', () => {
    const documents = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
    expect(documents.length).toBeGreaterThanOrEqual(7);
    expect(documents.filter((name) => !readme.includes(`](docs/${name})`))).toEqual([]);
  });

  it('tells adopters that browsers and fetch() refuse port 6000, and what to do', () => {
    expect(readme).toMatch(/6000/);
    expect(readme).toMatch(/bad port/i);
    expect(readme).toMatch(/set `PORT`/);
  });

  it('names the platforms it runs on, as the code has them', () => {
    const section = readme.slice(readme.indexOf('### Supported platforms'), readme.indexOf('\n## ', readme.indexOf('### Supported platforms')));
    expect(section).toMatch(/\| Linux x86_64 and arm64 \| supported/);
    expect(section).toMatch(/\| macOS \|/);
    expect(section).toMatch(/\| Windows \| through WSL 2 only/);
    // The claims the section rests on: the pinned Node, the image's base, and the POSIX `exec` in the scripts.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; scripts: Record<string, string> };
    expect(section).toContain(`Node ${pkg.devDependencies['node']}`);
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toMatch(/^FROM node:24-slim AS service$/m);
    expect(section).toContain('FROM node:24-slim');
    expect(pkg.scripts['start']).toMatch(/^exec /);
  });
});
