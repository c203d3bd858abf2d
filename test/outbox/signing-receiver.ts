import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export interface Received {
  /** The request's headers, lower-case names, as the receiver got them. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly status: number;
  /** Why the verifier refused it (standardwebhooks' message), if it did. */
  readonly refused: string | undefined;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string') flat[name] = value;
  return flat;
}

/** What the `standardwebhooks` package says of one delivery, for a receiver that knows `secrets`: undefined = verified. */
export function verifyWithLibrary(secrets: readonly string[], body: string, headers: Readonly<Record<string, string>>): string | undefined {
  let reason = 'no secret';
  for (const secret of secrets) {
    try {
      new Webhook(secret).verify(body, { ...headers });
      return undefined;
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      reason = err.message;
    }
  }
  return reason;
}

/**
 * A handoff receiver over loopback that verifies every delivery with the npm `standardwebhooks`
 * package (a verifier this project did not write), as docs/handoff-receivers.md tells receivers to:
 * 401 when no secret it knows verifies it; a verified one gets the next scripted status (202 once the
 * script is used up). With no secrets it accepts everything unchecked.
 */
export async function startSigningReceiver(secrets: readonly string[], script: number[] = []) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = flatHeaders(req.headers);
      const refused = secrets.length === 0 ? undefined : verifyWithLibrary(secrets, body, headers);
      const status = refused === undefined ? (script.shift() ?? 202) : 401;
      received.push({ headers, body, status, refused });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(refused === undefined ? { accepted: status === 202 } : { detail: refused }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    received,
    /** Sends a request to the receiver as an attacker who captured a delivery would: its status. */
    async resend(headers: Readonly<Record<string, string>>, body: string): Promise<number> {
      const sent = Object.fromEntries(Object.entries(headers).filter(([name]) => !['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)));
      const res = await fetch(`${url}/handoff`, { method: 'POST', headers: sent, body });
      await res.arrayBuffer();
      return res.status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
