import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkSignature } from '../../src/local/handoff/signature-check.ts';

export interface Received {
  readonly signature: string | undefined;
  readonly body: string;
  readonly status: number;
}

/**
 * A handoff receiver over loopback that checks every delivery's signature the way docs/contracts.md#handoff-receiver tells
 * receivers to (the reference check of the local stack): 401 for a missing, wrong or stale one, 400
 * for a malformed one; a valid one gets the next scripted status (202 once the script is used up).
 */
export async function startSigningReceiver(secrets: readonly string[], script: number[] = []) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = req.headers['x-chat-adapter-signature'];
      const verdict = secrets.length === 0 ? ({ ok: true } as const) : checkSignature(header, body, secrets, Date.now());
      const status = verdict.ok ? (script.shift() ?? 202) : verdict.status;
      received.push({ signature: typeof header === 'string' ? header : undefined, body, status });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(verdict.ok ? { accepted: status === 202 } : { detail: verdict.detail }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
