import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startLocalStack } from '../../src/local/index.ts';
import { startTestStack, tempDataDir } from './helpers.ts';

describe('startLocalStack', () => {
  it('starts only the parties asked for, on loopback, and reports their URLs', async () => {
    const stack = await startTestStack(new Set(['propertyApi', 'translate']));
    try {
      expect(Object.keys(stack.urls).sort()).toEqual(['propertyApi', 'translate']);
      for (const base of Object.values(stack.urls)) expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(stack.logs.filter((l) => l.msg === 'local party listening').map((l) => (l.obj as { party: string }).party).sort())
        .toEqual(['propertyApi', 'translate']);
      // No store party: no database file either.
      expect(existsSync(join(stack.dataDir, 'chat-adapter-local.sqlite'))).toBe(false);
    } finally {
      await stack.dispose();
    }
  });

  it('creates a missing data directory, and close() stops the servers and may be called twice', async () => {
    const root = tempDataDir();
    const dataDir = join(root, 'nested', 'data');
    const stack = await startLocalStack({ dataDir, parties: new Set(['graphql', 'engine']) });
    expect(existsSync(join(dataDir, 'chat-adapter-local.sqlite'))).toBe(true);
    const engineUrl = stack.urls.engine ?? '';
    await stack.close();
    await stack.close();
    await expect(fetch(`${engineUrl}/query`, { method: 'POST' })).rejects.toThrow();
    rmSync(root, { recursive: true, force: true });
  });

  it('fails to start, without leaving servers behind, when the data directory cannot be used', async () => {
    const root = tempDataDir();
    const notADirectory = join(root, 'file');
    writeFileSync(notADirectory, 'x');
    const listening: string[] = [];
    const logger = { info: (obj: object) => { if ('url' in obj) listening.push(String(obj.url)); }, warn: () => {} };
    // The engine starts before the store, so it is up when opening the database fails.
    await expect(startLocalStack({ dataDir: notADirectory, parties: new Set(['engine', 'graphql']), logger })).rejects.toThrow();
    expect(listening).toHaveLength(1);
    await expect(fetch(`${listening[0]}/query`, { method: 'POST' })).rejects.toThrow();
    rmSync(root, { recursive: true, force: true });
  });
});
