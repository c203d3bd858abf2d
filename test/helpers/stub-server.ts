import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
  readonly at: number;
}

export type StubHandler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export interface StubServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Replaces the behaviour for the following requests. */
  handle(handler: StubHandler): void;
  /** Stops listening (new connections are refused, open ones dropped) until `up()`: a party that is down. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A real HTTP server on a loopback port: the service reaches it over real sockets. */
export async function startStub(initial: StubHandler): Promise<StubServer> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // keep the raw text
      }
      const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, at: Date.now() };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res)).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: String(err) });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
    },
    down: stop,
    up: () =>
      new Promise<void>((resolve, reject) => {
        if (server.listening) return resolve();
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      }),
    close: stop,
  };
}
