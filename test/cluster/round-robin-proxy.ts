/**
 * The load balancer of a cluster run: each request goes to the next instance in turn. A new
 * connection per forwarded request, so an instance that is gone (killed, or closing after SIGTERM)
 * is a refused connection, unambiguous: the request was not sent, and the proxy tries the next
 * instance, as a load balancer does once its health check fails. Any other error is a 502.
 * Every answer says which instance gave it (`x-served-by`, the instance's slot number).
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SERVED_BY = 'x-served-by';

export interface RoundRobinProxy {
  readonly url: string;
  close(): Promise<void>;
}

interface Forwarded {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

function forward(target: string, method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Forwarded> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(target);
    const outgoing = request({ hostname, port, method, path, headers: { ...headers, connection: 'close' }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** `targets()` is read per request: the instances in their slots, replaced ones included. */
export async function startRoundRobinProxy(targets: () => readonly string[]): Promise<RoundRobinProxy> {
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const list = targets();
      for (let tried = 0; tried < list.length; tried += 1) {
        const slot = next++ % list.length;
        try {
          const answer = await forward(list[slot]!, req.method ?? 'GET', req.url ?? '/', req.headers, body);
          const { connection: _c, 'keep-alive': _k, 'transfer-encoding': _t, ...headers } = answer.headers;
          res.writeHead(answer.status, { ...headers, [SERVED_BY]: String(slot) }).end(answer.body);
          return;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED') continue;
          res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: `proxy: ${String(err)}` }));
          return;
        }
      }
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'proxy: no instance answered' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
