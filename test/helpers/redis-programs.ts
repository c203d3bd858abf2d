/**
 * The Redis programs of this test run: REDIS_FLAVOUR's server and client, found (or fetched) once by
 * test/helpers/global-setup.ts. The only part of the topology helpers that needs vitest.
 */
import { inject } from 'vitest';
import type { RedisFlavour, RedisPrograms } from './redis-node.ts';

/** The programs of this run; `flavour`, when given, must be the run's (REDIS_FLAVOUR picks it). */
export function redisPrograms(flavour?: RedisFlavour): RedisPrograms {
  const provided = inject('redisServer');
  // The one line saying what to install; the Redis tests fail with it, they never skip.
  if ('error' in provided) throw new Error(provided.error);
  if (flavour !== undefined && flavour !== provided.flavour) {
    throw new Error(`this run provides ${provided.flavour}, not ${flavour}: run it with REDIS_FLAVOUR=${flavour}`);
  }
  return provided;
}
