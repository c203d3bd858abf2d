import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { releaseStartUpMemory } from '../../src/runtime/release-start-up-memory.ts';

function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;
}

describe('releasing the start-up memory', () => {
  it('shrinks the young generation a start-up grew, and leaves no gc() on the global object', () => {
    // What loading modules does: many objects that survive young collections, growing the young generation.
    const kept: object[] = [];
    for (let i = 0; i < 400_000; i++) kept.push({ i, text: `object ${i}` });
    const grown = youngGenerationBytes();
    kept.length = 0;

    const ms = releaseStartUpMemory();

    expect(ms).toBeGreaterThanOrEqual(0);
    expect(youngGenerationBytes()).toBeLessThan(grown);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
