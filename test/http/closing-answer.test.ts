/** docs/api.md#limits: a request that reaches the service while it closes gets 503 in the detail shape. */
import { once } from 'node:events';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService } from '../helpers/stubbed-service.ts';

describe('while the service closes', () => {
  it('answers a request whose head completes after closing began with 503 {"detail": ...} and closes its connection', async () => {
    const svc = await startStubbedService();
    svc.stubs.engine.handle((_req, res) => void setTimeout(() => sendJson(res, 200, engineReply()), 600));
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (svc.app.server.address() as { port: number }).port;
    const open = async () => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      await once(socket, 'connect');
      return { socket, received: () => received };
    };
    // A chat in flight keeps the service closing for a while.
    const chat = await open();
    const body = JSON.stringify(chatRequest());
    chat.socket.write(`POST /chat_adapter HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const late = await open();
    late.socket.write('GET /heartbeat HTTP/1.1\r\nHost: t\r\n');
    await sleep(200);
    const closed = svc.close();
    await sleep(50);
    late.socket.write('\r\n');
    await Promise.race([once(late.socket, 'close'), sleep(10_000)]);
    await Promise.race([once(chat.socket, 'close'), sleep(10_000)]);
    await closed;
    expect(chat.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(late.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(late.received()).toMatch(/connection: close/i);
    expect(late.received()).toMatch(/x-content-type-options: nosniff/i);
    expect(late.received()).toContain('{"detail":"Service shutting down"}');
  });
});
