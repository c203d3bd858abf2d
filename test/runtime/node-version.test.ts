import { describe, expect, it } from 'vitest';

// npm scripts must run the pinned Node 24 from node_modules/.bin, never the machine's own Node.
describe('runtime', () => {
  it('runs on Node 24', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
  });
});
