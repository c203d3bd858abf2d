/**
 * The image's HEALTHCHECK script (deploy/image/healthcheck.mjs), run as Docker runs it: a process
 * whose exit code is the verdict, against a real loopback server on the port in PORT. It uses
 * node:http because Node's fetch() refuses 6000, the service's default port (a fetch "bad port").
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const script = join(root, 'deploy/image/healthcheck.mjs');

function runHealthcheck(port: number): Promise<{ code: number; ms: number }> {
  const started = Date.now();
  return new Promise((done) => {
    execFile(process.execPath, [script], { env: { PORT: String(port) }, timeout: 10_000 }, (error) => {
      done({ code: error ? Number(error.code ?? -1) : 0, ms: Date.now() - started });
    });
  });
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe('the image health check', () => {
  it('is healthy when /heartbeat answers 200 on PORT, and asks nothing else', async () => {
    const paths: string[] = [];
    const port = await serve((req, res) => {
      paths.push(`${req.method} ${req.url}`);
      res.end('{"status":"ok"}');
    });
    expect((await runHealthcheck(port)).code).toBe(0);
    expect(paths).toEqual(['GET /heartbeat']);
  });

  it('is unhealthy when /heartbeat answers anything but 200', async () => {
    const port = await serve((_req, res) => {
      res.statusCode = 503;
      res.end();
    });
    expect((await runHealthcheck(port)).code).toBe(1);
  });

  it('is unhealthy when nothing listens on PORT', async () => {
    const port = await serve((_req, res) => res.end());
    server!.close();
    await once(server!, 'close');
    expect((await runHealthcheck(port)).code).toBe(1);
  });

  it('gives up within Docker\'s 3 s timeout when the service does not answer', async () => {
    const port = await serve(() => {
      // never answers
    });
    const { code, ms } = await runHealthcheck(port);
    expect(code).toBe(1);
    expect(ms).toBeLessThan(3_000);
  });

  it("is the Dockerfile's HEALTHCHECK, copied into the image", () => {
    const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
    const healthcheck = /^HEALTHCHECK [^\n]*\\\n\s*CMD (\[.*\])$/m.exec(dockerfile);
    expect(JSON.parse(healthcheck![1]!)).toEqual(['node', 'healthcheck.mjs']);
    expect(dockerfile).toContain('COPY deploy/image/healthcheck.mjs ./healthcheck.mjs');
  });
});
