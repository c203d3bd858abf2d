/**
 * The repository stands alone: a clone has every document the code and the docs refer to. No file
 * may point at documents that live outside it (a sibling folder of specifications, numbered
 * sections of documents a clone does not have); references go to docs/ instead.
 */
import { describe, expect, it } from 'vitest';
import { trackedTextFiles } from './tracked-files.ts';

// Built from parts so that this file does not match itself.
const OUTSIDE = ['SPEC', 'CONTRACTS', 'ARCHITECTURE', 'STYLE', 'DEPENDENCIES'].map((name) => `${name}.md`);
/** The folder beside the repository (`src/shared-state/` is the repository's own). */
const SIBLING_FOLDER = new RegExp(`\\.\\./${'shared'}(?![-\\w])`);
const NUMBERED_SECTION = new RegExp(`\\b(${['SPEC', 'CONTRACTS'].join('|')}) \\d`);

describe('the repository is self-contained', () => {
  const files = trackedTextFiles();

  it('reads the tracked files', () => {
    expect(files.has('README.md')).toBe(true);
    expect(files.size).toBeGreaterThan(100);
  });

  it('no tracked file refers to documents outside the repository', () => {
    const offenders: string[] = [];
    for (const [path, text] of files) {
      text.split('\n').forEach((line, i) => {
        if (OUTSIDE.some((name) => line.includes(name)) || SIBLING_FOLDER.test(line) || NUMBERED_SECTION.test(line)) offenders.push(`${path}:${i + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
