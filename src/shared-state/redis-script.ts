/**
 * A Lua script on a Redis connection, for the few operations that must read and write atomically
 * (compare-and-delete of an owned key, the session turn queue). ioredis sends it by its SHA
 * (EVALSHA) and loads it once when Redis does not know it yet.
 */
import type { Redis } from 'ioredis';

export type RedisScript = (keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

export function redisScript(client: Redis, name: string, numberOfKeys: number, lua: string): RedisScript {
  client.defineCommand(name, { numberOfKeys, lua });
  const command = (client as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[name];
  if (command === undefined) throw new Error(`redis script ${name} was not defined`);
  return (keys, args) => command.call(client, ...keys, ...args);
}

/** Deletes KEYS[1] when it still holds ARGV[1] (its owner's value); 1 when deleted, 0 otherwise. */
export const DELETE_IF_OWNED = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** Replaces KEYS[1] by ARGV[2] for ARGV[3] ms when it still holds ARGV[1]; 1 when replaced. */
export const REPLACE_IF_OWNED = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) return 1 end
return 0`;

/** A script whose number of keys changes from call to call: they are counted at each call. */
export function redisScriptWithKeys(client: Redis, name: string, lua: string): RedisScript {
  client.defineCommand(name, { lua });
  const command = (client as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[name];
  if (command === undefined) throw new Error(`redis script ${name} was not defined`);
  return (keys, args) => command.call(client, keys.length, ...keys, ...args);
}
