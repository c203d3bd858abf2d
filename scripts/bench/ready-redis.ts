/** The service's own Redis connection (src/shared-state/redis-connection.ts), once it is ready: what each benchmark kind calls through. */
import type { Redis } from 'ioredis';
import { connectRedis } from '../../src/shared-state/redis-connection.ts';

export async function readyRedis(url: string): Promise<Redis> {
  const client = connectRedis(url);
  await new Promise<void>((resolve, reject) => {
    client.once('ready', () => resolve());
    client.once('error', reject);
  });
  return client;
}
