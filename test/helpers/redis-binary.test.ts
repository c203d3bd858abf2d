import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateRedisServer, redisFlavourFrom } from './redis-binary.ts';

const scratch = mkdtempSync(join(tmpdir(), 'redis-binary-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder of stand-in programs that print `version` for --version. */
function binFolder(name: string, programs: readonly string[], version = 'stand-in v=0.0.0'): string {
  const bin = join(scratch, name);
  mkdirSync(bin);
  for (const program of programs) {
    writeFileSync(join(bin, program), `#!/bin/sh\necho '${version}'\n`);
    chmodSync(join(bin, program), 0o755);
  }
  return bin;
}

/** No apt-get reachable: an empty PATH for the tools. */
const noTools = { PATH: join(scratch, 'empty') };

describe('finding the Redis programs for the tests', () => {
  it('takes redis-server and redis-cli on PATH when both are there, without fetching anything', async () => {
    const bin = binFolder('both', ['redis-server', 'redis-cli'], 'Redis server v=7.0.15');
    const found = await locateRedisServer({ path: `/nonexistent:${bin}`, cacheDir: join(scratch, 'never-made'), toolEnv: noTools });
    expect(found).toEqual({ flavour: 'redis', command: join(bin, 'redis-server'), cli: join(bin, 'redis-cli'), env: {}, version: 'Redis server v=7.0.15', source: 'PATH' });
  });

  it('passes over a redis-server on PATH without its redis-cli (the cluster tests need both)', async () => {
    const bin = binFolder('server-only', ['redis-server']);
    const found = await locateRedisServer({ path: bin, cacheDir: join(scratch, 'cache-a', 'redis'), toolEnv: noTools });
    expect(found).toBeInstanceOf(Error);
    expect((found as Error).message).toContain('they are not both on PATH');
  });

  it('for Valkey, takes valkey-server and valkey-cli, never the redis ones', async () => {
    const redisOnly = binFolder('redis-only', ['redis-server', 'redis-cli']);
    const valkey = binFolder('valkey', ['valkey-server', 'valkey-cli'], 'Valkey server v=8.0.1');
    const found = await locateRedisServer({ flavour: 'valkey', path: `${redisOnly}:${valkey}`, cacheDir: join(scratch, 'never-made'), toolEnv: noTools });
    expect(found).toMatchObject({ flavour: 'valkey', command: join(valkey, 'valkey-server'), cli: join(valkey, 'valkey-cli'), version: 'Valkey server v=8.0.1' });
  });

  it('when it cannot fetch them, says in one line what to install', async () => {
    const found = await locateRedisServer({ path: '', cacheDir: join(scratch, 'cache', 'redis'), toolEnv: noTools });
    expect(found).toBeInstanceOf(Error);
    const message = (found as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^The Redis tests need redis-server and redis-cli: .*install them with "apt-get install redis-server redis-tools"$/);
  });

  it('for Valkey, names the backports packages in that one line', async () => {
    const found = await locateRedisServer({ flavour: 'valkey', path: '', cacheDir: join(scratch, 'cache', 'valkey'), toolEnv: noTools });
    const message = (found as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^The Valkey tests need valkey-server and valkey-cli: .*"apt-get install -t bookworm-backports valkey-server valkey-tools .*"$/);
  });
});

describe('REDIS_FLAVOUR', () => {
  it('is redis when unset or empty, and takes redis or valkey', () => {
    expect(redisFlavourFrom(undefined)).toBe('redis');
    expect(redisFlavourFrom('')).toBe('redis');
    expect(redisFlavourFrom('redis')).toBe('redis');
    expect(redisFlavourFrom('valkey')).toBe('valkey');
  });

  it('refuses anything else with a line naming what is allowed', () => {
    const refused = redisFlavourFrom('keydb');
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe('REDIS_FLAVOUR must be one of redis, valkey (or unset for redis), not "keydb"');
  });
});
