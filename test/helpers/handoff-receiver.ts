/**
 * A handoff receiver on a fixed loopback port that can be taken down and brought back (a real
 * refused connection, not a stubbed error), or made to hang; it records every request and what it
 * accepted.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { sendJson } from './stub-server.ts';

export interface ReceivedHandoff {
  readonly key: string | undefined;
  readonly body: Record<string, unknown>;
}

export type ReceiverMode = 'accept' | 'hang';

export function handoffReceiverOn(port: number) {
  const requests: ReceivedHandoff[] = [];
  const accepted: ReceivedHandoff[] = [];
  const hanging: ServerResponse[] = [];
  let server: Server | undefined;
  let mode: ReceiverMode = 'accept';
  return {
    url: `http://127.0.0.1:${port}`,
    /** Every request that arrived, and those answered 202. */
    requests,
    accepted,
    setMode(next: ReceiverMode) {
      mode = next;
    },
    async up(): Promise<void> {
      server = createServer((req, res) => {
        let text = '';
        req.on('data', (chunk: Buffer) => (text += chunk.toString()));
        req.on('end', () => {
          const received = { key: req.headers['idempotency-key'] as string | undefined, body: JSON.parse(text) as Record<string, unknown> };
          requests.push(received);
          if (mode === 'hang') return void hanging.push(res);
          accepted.push(received);
          sendJson(res, 202, {});
        });
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    async down(): Promise<void> {
      server?.closeAllConnections();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
  };
}
