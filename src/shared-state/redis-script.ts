/**
 * A Lua script on a Redis connection (single node, Sentinel or Cluster), for the few operations
 * that must read and write atomically. ioredis sends it by its SHA (EVALSHA) and sends the script
 * itself when Redis answers NOSCRIPT (a restart, a failover, a cluster node that never saw it).
 * Every key the script touches is passed in KEYS, so a cluster routes it to the slot's owner.
 */
import type { Cluster, Redis } from 'ioredis';

export type RedisScript = (keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

export function redisScript(client: Redis | Cluster, name: string, numberOfKeys: number, lua: string): RedisScript {
  client.defineCommand(name, { numberOfKeys, lua });
  const command = (client as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[name];
  if (command === undefined) throw new Error(`redis script ${name} was not defined`);
  return (keys, args) => {
    if (keys.length !== numberOfKeys) throw new Error(`redis script ${name} takes ${numberOfKeys} keys, got ${keys.length}`);
    return command.call(client, ...keys, ...args);
  };
}

