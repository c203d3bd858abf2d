/**
 * Runs once per `vitest run`, before any test file: finds (or fetches, once) the redis-server the
 * Redis tests start, and hands its location to every test worker. Doing it here, not per file,
 * means concurrent files never race on the download.
 */
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { locateRedisServer } from './redis-binary.ts';

/** What test/helpers/redis-server.ts receives: how to start Redis, or the one line saying what to install. */
export type ProvidedRedis = { command: string; env: Record<string, string> } | { error: string };

declare module 'vitest' {
  export interface ProvidedContext {
    redisServer: ProvidedRedis;
  }
}

export const REDIS_CACHE_DIR = resolve(import.meta.dirname, '../../.cache/redis');

export default async function setup(project: TestProject): Promise<void> {
  const found = await locateRedisServer({ path: process.env['PATH'] ?? '', cacheDir: REDIS_CACHE_DIR });
  // No Redis is not fatal here: the files that need one fail with this line; the others still run.
  project.provide('redisServer', found instanceof Error ? { error: found.message } : { command: found.command, env: { ...found.env } });
}
