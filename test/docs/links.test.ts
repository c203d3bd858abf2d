/**
 * The documents are read on a repository host, where a relative link is a file and `#anchor` a
 * heading: every link between the project's Markdown files must resolve, and so must every
 * `docs/<file>.md#<anchor>` a code comment points at. docs/ holds documents, not run output or a
 * run diary: benchmark runs write their JSON where the caller says (scripts/bench/run.ts --out).
 */
import { existsSync } from 'node:fs';
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

  it('docs/ holds documents, not run output: no benchmark dump, and nothing points at a benchmark folder in docs', () => {
    const underDocs = [...files.keys()].filter((path) => path.startsWith('docs/'));
    // Documents, the generated contracts (checked against their generator) and images.
    expect(underDocs.filter((path) => !/^docs\/([a-z-]+\.md|contracts\/[a-z-]+\.(openapi\.json|graphql)|images\/[a-z0-9-]+\.png)$/.test(path))).toEqual([]);
    expect(existsSync(join(ROOT, 'docs/bench'))).toBe(false);
    const benchFolder = ['docs', 'bench/'].join('/');
    expect([...files].filter(([, text]) => text.includes(benchFolder)).map(([path]) => path)).toEqual([]);
  });

  it('no document is a run diary: no dated runs, "before and after" or "measured, not kept" outside code examples', () => {
    const diary = /\b20\d\d-\d\d-\d\d\b|\bbefore and after\b|\bmeasured, not kept\b|\ban earlier run\b|\bsession \d+\b/i;
    const found: string[] = [];
    for (const path of markdown.filter((p) => p.startsWith('docs/'))) {
      const prose = files.get(path)!.replace(/```[\s\S]*?```/g, '');
      for (const line of prose.split('\n')) if (diary.test(line)) found.push(`${path}: ${line.slice(0, 100)}`);
    }
    expect(found).toEqual([]);
  });
});
