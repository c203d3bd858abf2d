/**
 * docs/configuration.md is what operators read: its tables must list every variable the service
 * reads, and nothing the service ignores (a documented setting that does nothing). The README's
 * summary may name only variables the service reads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/** The variables named in the first cell of every table row of a Markdown text: `A`, `B` / `C`. */
function variablesInTables(markdown: string): Set<string> {
  const rows = markdown.split('\n').filter((line) => line.startsWith('| `'));
  return new Set(rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)));
}

function variablesTheServiceReads(): Set<string> {
  const dir = join(root, 'src/config');
  const names = new Set<string>();
  for (const file of readdirSync(dir)) {
    for (const match of readFileSync(join(dir, file), 'utf8').matchAll(/'([A-Z][A-Z0-9_]{3,})'/g)) {
      // Node's error codes (a busy port, a missing module) are not settings.
      if (!/^(ERR_[A-Z_]+|EADDRINUSE|EACCES|ENOENT)$/.test(match[1]!)) names.add(match[1]!);
    }
  }
  return names;
}

describe('docs/configuration.md', () => {
  const read = variablesTheServiceReads();

  it('lists every variable the service reads, and only those', () => {
    const documented = variablesInTables(readFileSync(join(root, 'docs/configuration.md'), 'utf8'));
    expect(read.size).toBeGreaterThan(30);
    expect([...read].filter((name) => !documented.has(name)), 'read but not documented').toEqual([]);
    expect([...documented].filter((name) => !read.has(name)), 'documented but never read').toEqual([]);
  });

  it("the README's configuration summary names only variables the service reads", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('\n## Configuration');
    expect(start, 'README has a "## Configuration" section').toBeGreaterThan(0);
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const named = [...section.matchAll(/`([A-Z][A-Z0-9_]{3,})`/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((name) => !read.has(name) && name !== 'NODE_OPTIONS')).toEqual([]);
  });
});
