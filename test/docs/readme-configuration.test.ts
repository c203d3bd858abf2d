/**
 * The README's configuration table is what operators read: every variable the service reads must be
 * in it, and nothing in it that the service ignores (a documented setting that does nothing).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

function configurationTable(): Set<string> {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Configuration\n');
  const end = readme.indexOf('\n## ', start + 1);
  expect(start, 'README has a "## Configuration" section').toBeGreaterThan(0);
  const rows = readme.slice(start, end).split('\n').filter((line) => line.startsWith('| `'));
  // The first cell names one or more variables: `A`, `B` / `C`.
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

describe('README configuration table', () => {
  it('lists every variable the service reads, and only those', () => {
    const documented = configurationTable();
    const read = variablesTheServiceReads();
    expect([...read].filter((name) => !documented.has(name)), 'read but not documented').toEqual([]);
    expect([...documented].filter((name) => !read.has(name)), 'documented but never read').toEqual([]);
  });
});
