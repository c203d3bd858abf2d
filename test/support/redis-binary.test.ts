import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateRedisServer } from './redis-binary.ts';

const scratch = mkdtempSync(join(tmpdir(), 'redis-binary-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('finding redis-server for the tests', () => {
  it('takes the redis-server on PATH when there is one, without fetching anything', async () => {
    const bin = join(scratch, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'redis-server'), '#!/bin/sh\n');
    chmodSync(join(bin, 'redis-server'), 0o755);
    const found = await locateRedisServer({ path: `/nonexistent:${bin}`, cacheDir: join(scratch, 'never-made') });
    expect(found).toEqual({ command: join(bin, 'redis-server'), env: {}, source: 'PATH' });
  });

  it('when it cannot fetch one, says in one line what to install', async () => {
    // No apt-get reachable: an empty PATH for the tools.
    const found = await locateRedisServer({ path: '', cacheDir: join(scratch, 'cache', 'redis'), toolEnv: { PATH: join(scratch, 'empty') } });
    expect(found).toBeInstanceOf(Error);
    const message = (found as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^The Redis tests need redis-server: .*install it with "apt-get install redis-server"$/);
  });
});
