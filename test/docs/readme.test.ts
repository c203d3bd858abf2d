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
});
