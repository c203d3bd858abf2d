/**
 * A real redis-server for one test file, a plain client to look into it, and connections opened
 * the way the service opens them (connectRedis: no offline queue, 200 ms command timeout), all
 * closed once the file's tests are over.
 */
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { connectRedis } from '../../src/shared-state/redis-connection.ts';
import { startTestRedis, type TestRedis } from './redis-server.ts';

export interface RedisForTests {
  readonly server: TestRedis;
  /** A plain client on the server (MONITOR, CLIENT PAUSE, reading keys). */
  readonly raw: Redis;
  /** A service-style connection to `url` (the file's server by default), once ready unless `ready` is false. */
  connect(url?: string, ready?: boolean): Promise<Redis>;
}

export function useRedisConnections(): RedisForTests {
  let server: TestRedis | undefined;
  let raw: Redis | undefined;
  const connections: Redis[] = [];
  beforeAll(async () => {
    server = await startTestRedis();
    raw = new Redis(server.url);
  });
  afterAll(async () => {
    for (const client of connections) client.disconnect();
    raw?.disconnect();
    await server?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the test redis-server is not started yet (use it inside a test)');
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get raw() {
      return started(raw);
    },
    async connect(url = started(server).url, ready = true) {
      const client = connectRedis(url);
      connections.push(client);
      if (ready) await once(client, 'ready');
      return client;
    },
  };
}
