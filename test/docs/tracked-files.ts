/** The repository's tracked text files, read as a clone has them (git ls-files). */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

const BINARY = /\.(png|jpe?g|gif|ico|sqlite|woff2?)$/i;

/** Path -> text of every tracked file that is not binary (and still exists in the work tree). */
export function trackedTextFiles(): Map<string, string> {
  const paths = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter((p) => p !== '');
  const files = new Map<string, string>();
  for (const path of paths) {
    if (BINARY.test(path) || !existsSync(join(ROOT, path))) continue;
    files.set(path, readFileSync(join(ROOT, path), 'utf8'));
  }
  return files;
}

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown file offers (duplicates get -1, -2 as on GitHub). */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (inFence || heading === null) continue;
    const base = headingAnchor(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}
