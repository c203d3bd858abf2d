/**
 * A loopback port free at the time of asking (the kernel picks it, the probe lets it go). Kept free
 * of vitest so that the benchmark (scripts/bench/) uses the same helper as the tests.
 */
import { once } from 'node:events';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no free loopback port');
  return address.port;
}
