import { describe, expect, it } from 'vitest';
import { trackedTextFiles } from './tracked-files.ts';

/*
 * Two checkouts on one machine must be able to run `npm test` at once: no test listens on, or holds,
 * a fixed port. Tests take port 0 or freePort(); a process they start gets PLAYGROUND_PORT=0 unless
 * they name a free one (test/helpers/service-process.ts).
 */
const FIXED_PORT = [
  /occupyPort\(\s*\d+\s*\)/g,
  /\.listen\(\s*[1-9]\d{2,}\b/g,
  /\blisten\(\s*\{[^}]*port:\s*[1-9]\d{2,}\b/g,
];

describe('tests and free ports', () => {
  it('no test takes a fixed port', () => {
    const fixed: string[] = [];
    for (const [path, text] of trackedTextFiles()) {
      if (!path.startsWith('test/') || !path.endsWith('.ts') || path === 'test/docs/free-ports.test.ts') continue;
      for (const pattern of FIXED_PORT) for (const match of text.matchAll(pattern)) fixed.push(`${path}: ${match[0]}`);
    }
    expect(fixed).toEqual([]);
  });
});
