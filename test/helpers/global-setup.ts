/**
 * Runs once per `vitest run`, before any test file: finds (or fetches, once) the Redis programs the
 * tests start, and hands their location to every test worker. Doing it here, not per file, means
 * concurrent files never race on the download.
 *
 * REDIS_FLAVOUR picks what "Redis" is for the whole run: `redis` (the default: redis-server and
 * redis-cli) or `valkey` (valkey-server and valkey-cli 8.0). Each flavour has its own cache folder.
 */
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { locateRedisServer, redisFlavourFrom, type RedisFlavour } from './redis-binary.ts';

/**
 * What test/helpers/redis-server.ts (and redis-cluster.ts, redis-sentinel.ts) receive: how to start
 * the server and its client, or the one line saying what to install.
 */
export type ProvidedRedis =
  | { flavour: RedisFlavour; command: string; cli: string; env: Record<string, string>; version: string }
  | { error: string };

declare module 'vitest' {
  export interface ProvidedContext {
    redisServer: ProvidedRedis;
  }
}

export const REDIS_CACHE_DIR = resolve(import.meta.dirname, '../../.cache');

export default async function setup(project: TestProject): Promise<void> {
  const flavour = redisFlavourFrom(process.env['REDIS_FLAVOUR']);
  const found = flavour instanceof Error ? flavour : await locateRedisServer({ flavour, path: process.env['PATH'] ?? '', cacheDir: join(REDIS_CACHE_DIR, flavour) });
  // No Redis is not fatal here: the files that need one fail with this line; the others still run.
  project.provide(
    'redisServer',
    found instanceof Error ? { error: found.message } : { flavour: found.flavour, command: found.command, cli: found.cli, env: { ...found.env }, version: found.version },
  );
}
