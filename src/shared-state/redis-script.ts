/**
 * A Lua script on a Redis connection (single node, Sentinel or Cluster), for the few operations
 * that must read and write atomically. ioredis sends it by its SHA (EVALSHA) and sends the script
 * itself when Redis answers NOSCRIPT (a restart, a failover, a cluster node that never saw it).
 * Every key the script touches is passed in KEYS, so a cluster routes it to the slot's owner.
 */
import { performance } from 'node:perf_hooks';
import type { Cluster, Redis } from 'ioredis';

export type RedisScript = (keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

/** Told of every call of a script: its name, seconds from send to reply, and whether Redis answered. */
export type ScriptObserver = (script: string, seconds: number, ok: boolean) => void;

export function redisScript(client: Redis | Cluster, name: string, numberOfKeys: number, lua: string, observe?: ScriptObserver): RedisScript {
  client.defineCommand(name, { numberOfKeys, lua });
  const command = (client as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[name];
  if (command === undefined) throw new Error(`redis script ${name} was not defined`);
  const call = (keys: readonly string[], args: readonly (string | number)[]) => {
    if (keys.length !== numberOfKeys) throw new Error(`redis script ${name} takes ${numberOfKeys} keys, got ${keys.length}`);
    return command.call(client, ...keys, ...args);
  };
  if (observe === undefined) return call;
  return async (keys, args) => {
    const started = performance.now();
    try {
      const reply = await call(keys, args);
      observe(name, (performance.now() - started) / 1000, true);
      return reply;
    } catch (err) {
      observe(name, (performance.now() - started) / 1000, false);
      throw err;
    }
  };
}

