/**
 * `npm run bench -- --rate N` compares targets at one load: each target must then be sent N chats
 * a second, not as many as it can answer. A rate that did not reach autocannon would silently give
 * figures measured at each target's own maximum again.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../scripts/bench/load.ts';

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no loopback address');
  url = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  server.close();
  await once(server, 'close');
});

describe('bench load', () => {
  it('sends about the asked rate over all connections, far below what the target can answer', async () => {
    const paced = await load({ url, seconds: 2, connections: 10, rate: 100 });
    const free = await load({ url, seconds: 1, connections: 10 });
    expect(paced.failed).toBe(0);
    expect(paced.rps).toBeGreaterThan(70);
    expect(paced.rps).toBeLessThan(130);
    expect(free.rps).toBeGreaterThan(3 * paced.rps);
  });
});
