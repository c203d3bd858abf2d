/**
 * The documents are read on a repository host, where a relative link is a file and `#anchor` a
 * heading: every link between the project's Markdown files must resolve, and so must every
 * `docs/<file>.md#<anchor>` a code comment points at. Every benchmark file is quoted by a document
 * (an unquoted one is history), and every one a document quotes exists.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, anchorsOf, trackedTextFiles } from './tracked-files.ts';

const files = trackedTextFiles();

/**
 * The playground's screenshot is taken by the browser run of the playground and committed with it;
 * until it is, the README's image reference is the one link allowed to wait for its file.
 */
const SCREENSHOT = 'docs/images/playground.png';
const markdown = [...files.keys()].filter((path) => path.endsWith('.md'));

function anchorProblem(target: string, anchor: string): string | undefined {
  const text = files.get(target);
  if (text === undefined) return `${target} is not a tracked file`;
  return anchorsOf(text).has(anchor) ? undefined : `${target} has no heading for #${anchor}`;
}

describe('links between documents', () => {
  it('finds the documents', () => {
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/api.md', 'docs/contracts.md', 'CONTRIBUTING.md']));
  });

  it('every relative Markdown link points at an existing file, and its #anchor at a heading', () => {
    const problems: string[] = [];
    for (const path of markdown) {
      const text = files.get(path)!.replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target!)) continue;
        const [file, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = file === '' ? path : normalize(join(dirname(path), file));
        if (!existsSync(join(ROOT, resolved)) && resolved !== SCREENSHOT) problems.push(`${path}: ${target} (no such file)`);
        else if (anchor !== undefined && resolved.endsWith('.md')) {
          const problem = anchorProblem(resolved, anchor);
          if (problem !== undefined) problems.push(`${path}: ${target} (${problem})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('every docs/<file>.md#<anchor> named in code or configuration resolves', () => {
    const problems: string[] = [];
    for (const [path, text] of files) {
      if (path.endsWith('.md')) continue;
      for (const [, file, anchor] of text.matchAll(/\bdocs\/([a-z-]+\.md)(?:#([a-z0-9-]+))?/g)) {
        const target = `docs/${file!}`;
        const problem = anchor === undefined ? (files.has(target) ? undefined : `${target} is not a tracked file`) : anchorProblem(target, anchor);
        if (problem !== undefined) problems.push(`${path}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every benchmark file is quoted by a document, and every quoted one exists', () => {
    const docsText = markdown.map((path) => files.get(path)!).join('\n');
    const kept = readdirSync(join(ROOT, 'docs/bench')).filter((name) => name.endsWith('.json'));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.filter((name) => !docsText.includes(`bench/${name}`))).toEqual([]);
    const quoted = [...docsText.matchAll(/bench\/([\w.-]+\.json)/g)].map((m) => m[1]!);
    expect(quoted.filter((name) => !kept.includes(name))).toEqual([]);
    // Named after their date and what they measured.
    for (const name of kept) expect(name).toMatch(/^\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.json$/);
  });
});
