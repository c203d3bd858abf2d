/**
 * Measures how long the whole local stack takes to start (all five parties, fresh data dir),
 * including module loading, classifier training and opening SQLite. Run:
 *   npx node scripts/local-stack-startup.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const began = performance.now();
const { startLocalStack } = await import('../src/local/index.ts');
const imported = performance.now();
const dataDir = mkdtempSync(join(tmpdir(), 'local-stack-startup-'));
const stack = await startLocalStack({
  dataDir,
  parties: new Set(['engine', 'graphql', 'propertyApi', 'handoff', 'translate']),
});
const started = performance.now();
await stack.close();
rmSync(dataDir, { recursive: true, force: true });

console.log(`module import:        ${(imported - began).toFixed(0)} ms`);
console.log(`startLocalStack():    ${(started - imported).toFixed(0)} ms`);
console.log(`total (import+start): ${(started - began).toFixed(0)} ms`);
console.log(`parties: ${Object.keys(stack.urls).join(', ')}`);
