import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('natural, as the reference engine loads it', () => {
  it('is named by one module only (src/local/natural-parts.ts)', () => {
    const naming = sourceFiles(join(ROOT, 'src'))
      .filter((file) => /from 'natural[/']/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(naming).toEqual(['src/local/natural-parts.ts']);
  });

  it('loads without natural\'s database adapters and without printing anything', () => {
    const script = `
      import { createRequire } from 'node:module';
      const parts = await import('./src/local/natural-parts.ts');
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      process.stderr.write(JSON.stringify({ parts: Object.keys(parts).sort(), adapters: loaded.filter((p) => /node_modules\\/(pg|mongoose|mongodb|redis|memjs|dotenv)\\//.test(p)) }));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({ parts: ['AggressiveTokenizerEs', 'BayesClassifier', 'PorterStemmer', 'PorterStemmerEs', 'TfIdf'], adapters: [] });
  });
});
