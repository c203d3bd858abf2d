/**
 * docs/api.md#limits: every answer the service makes itself is in the `detail` shape, including the 503
 * a request gets when it reaches a server that is closing (pipelined behind a chat in flight, or on
 * a keep-alive connection that was busy when the close began). Such a request is handed to the
 * service's own request router, as Node's server does, once the close has begun.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startStubbedService } from '../helpers/stubbed-service.ts';

describe('a request reaching a closing server', () => {
  it('gets 503 {"detail": "Service shutting down"} with Retry-After and Connection: close, not the framework default body', async () => {
    const svc = await startStubbedService();
    await svc.app.ready();
    await svc.close();
    const server = createServer((req, res) => svc.app.routing(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/heartbeat`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ detail: 'Service shutting down' });
      expect(res.headers.get('retry-after')).toBe('1');
      expect(res.headers.get('connection')).toBe('close');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    } finally {
      server.close();
    }
  });
});
