/**
 * docs/api.md#limits over real sockets: idle keep-alive connections are closed, a request whose body
 * trickles in gets 408 and is closed, connections over the cap are dropped. Short timeouts
 * (configured) so that the test takes seconds.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';

const KEEP_ALIVE_MS = 1_000;
const RECEIVE_MS = 1_500;
const MAX_CONNECTIONS = 4;

let svc: StubbedService;
let port: number;
beforeAll(async () => {
  svc = await startStubbedService({
    KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS),
    REQUEST_RECEIVE_TIMEOUT_MS: String(RECEIVE_MS),
    MAX_CONNECTIONS: String(MAX_CONNECTIONS),
  });
  await svc.app.listen({ port: 0, host: '127.0.0.1' });
  port = (svc.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await svc?.close();
});

interface Client { socket: Socket; received(): string; closedAt: Promise<number> }

async function open(): Promise<Client> {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => {});
  const closedAt = once(socket, 'close').then(() => performance.now());
  await once(socket, 'connect');
  return { socket, received: () => received, closedAt };
}

const heartbeat = 'GET /heartbeat HTTP/1.1\r\nHost: test\r\n\r\n';

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) return false;
    await sleep(20);
  }
  return true;
}

describe('connection ceilings', () => {
  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS', async () => {
    const client = await open();
    client.socket.write(heartbeat);
    expect(await until(() => client.received().includes('{"success":1}'), 5_000)).toBe(true);
    expect(client.received()).toMatch(/keep-alive/i);
    const answeredAt = performance.now();
    const closedAt = await Promise.race([client.closedAt, sleep(KEEP_ALIVE_MS + 4_000).then(() => Number.NaN)]);
    expect(closedAt - answeredAt).toBeGreaterThan(KEEP_ALIVE_MS - 200);
    expect(closedAt - answeredAt).toBeLessThan(KEEP_ALIVE_MS + 3_000);
  });

  it('answers 408 in the detail shape and closes the connection when the body trickles in a byte a second', async () => {
    const client = await open();
    const body = JSON.stringify(chatRequest());
    client.socket.write(`POST /chat_adapter HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    const started = performance.now();
    let sent = 0;
    const trickle = setInterval(() => {
      if (!client.socket.destroyed) client.socket.write(body[sent++] ?? '');
    }, 1_000);
    try {
      const closedAt = await Promise.race([client.closedAt, sleep(RECEIVE_MS + 5_000).then(() => Number.NaN)]);
      expect(closedAt - started).toBeLessThan(RECEIVE_MS + 3_000);
    } finally {
      clearInterval(trickle);
    }
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(client.received()).toContain('{"detail":"Request Timeout"}');
    expect(svc.stubs.engine.requests).toHaveLength(0);
  });

  it('answers 408 and closes a connection whose head never ends', async () => {
    const client = await open();
    client.socket.write('GET /heartbeat HTTP/1.1\r\nHost: test\r\n');
    const closedAt = await Promise.race([client.closedAt, sleep(RECEIVE_MS + 5_000).then(() => Number.NaN)]);
    expect(Number.isNaN(closedAt)).toBe(false);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('drops connections over MAX_CONNECTIONS and serves again once some close', async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open()));
    await sleep(100);
    const over = await open();
    over.socket.write(heartbeat);
    const dropped = await Promise.race([over.closedAt.then(() => true), sleep(2_000).then(() => false)]);
    expect(dropped).toBe(true);
    expect(over.received()).toBe('');
    // The held ones are served.
    held[0]!.socket.write(heartbeat);
    expect(await until(() => held[0]!.received().includes('{"success":1}'), 3_000)).toBe(true);
    for (const client of held) client.socket.destroy();
    await Promise.all(held.map((c) => c.closedAt));
    await sleep(100);
    const again = await open();
    again.socket.write(heartbeat);
    expect(await until(() => again.received().includes('{"success":1}'), 3_000)).toBe(true);
    again.socket.destroy();
  });
});
