import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPort } from '../../src/http/browser-port.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/redis-server.ts';
import { occupyPort, spawnService, type ServiceProcess } from '../helpers/service-process.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { graphqlStubHandler, startStubs, stubPartiesEnv, type Stubs } from '../helpers/stubbed-service.ts';

/**
 * PLAYGROUND_PORT on the real process: browsers refuse the API's port 6000, so the same service also
 * answers on a second port, whose address the start-up log gives; it closes with the service.
 */
let stubs: Stubs;
let dataDir: string;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  stubs = await startStubs();
  stubs.graphql.handle(graphqlStubHandler());
  dataDir = mkdtempSync(join(tmpdir(), 'chat-adapter-browser-port-'));
});
afterAll(async () => {
  for (const svc of running) if (svc.child.exitCode === null && svc.child.signalCode === null) svc.child.kill('SIGKILL');
  await Promise.all(Object.values(stubs).map((s) => s.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

/** The log line the service writes for people, parsed. */
function logLine(svc: ServiceProcess, msg: string): Record<string, unknown> {
  const line = svc.stdout().split('\n').find((l) => l.includes(`"msg":"${msg}"`));
  expect(line, `a "${msg}" line in:\n${svc.stdout()}`).toBeDefined();
  return JSON.parse(line!) as Record<string, unknown>;
}

async function start(env: Record<string, string>): Promise<ServiceProcess> {
  const svc = spawnService({
    ENVIRONMENT: 'qa', HOST: '127.0.0.1', PORT: String(await freePort()), DATA_DIR: dataDir, LOG_LEVEL: 'info',
    ...stubPartiesEnv(stubs), ...env,
  });
  running.push(svc);
  return svc;
}

const postChat = (origin: string) =>
  fetch(`${origin}/chat_adapter`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chatRequest()) });

/** A keep-alive connection left open and idle after one request, as a browser leaves it. */
function idleKeepAlive(origin: string): Promise<Agent> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return new Promise((resolve, reject) => {
    httpRequest(`${origin}/heartbeat`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(agent));
    }).on('error', reject).end();
  });
}

describe('PLAYGROUND_PORT', () => {
  it('serves the playground, /docs and the chat on a second port named at start-up; SIGTERM lets its chat in flight finish', async () => {
    const port = await freePort();
    const svc = await start({ PLAYGROUND: 'true', PLAYGROUND_PORT: String(port) });
    await svc.untilOutput('open in a browser');
    const origin = `http://127.0.0.1:${port}`;
    expect(logLine(svc, 'open in a browser')).toMatchObject({ playground: `${origin}/playground/`, docs: `${origin}/docs`, port });

    const page = await fetch(`${origin}/playground/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Chat adapter playground</title>');
    expect((await fetch(`${origin}/docs/`)).status).toBe(200);
    const chat = await postChat(origin);
    expect(chat.status).toBe(200);
    expect(((await chat.json()) as { response: string }).response).toBe(engineReply().response);

    // A slow chat in flight on the second port, and an idle keep-alive connection to it.
    stubs.engine.handle(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 800));
      sendJson(res, 200, engineReply());
    });
    const idle = await idleKeepAlive(origin);
    const inFlight = postChat(origin);
    await new Promise((r) => setTimeout(r, 200));
    const stoppedAt = Date.now();
    svc.child.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(await svc.exited).toBe(0);
    // The idle connection did not hold the shutdown until its keep-alive timeout.
    expect(Date.now() - stoppedAt).toBeLessThan(4_000);
    await expect(fetch(`${origin}/heartbeat`)).rejects.toThrow();
    idle.destroy();
    stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
  });

  it('asked for and busy: one line naming the port and PLAYGROUND_PORT, exit 1', async () => {
    const held = await occupyPort();
    try {
      const svc = await start({ PLAYGROUND_PORT: String(held.port) });
      expect(await svc.exited).toBe(1);
      expect(svc.stderr()).toBe(`chat-adapter: port ${held.port} is already in use; set PLAYGROUND_PORT to another port, or 0 to turn it off\n`);
    } finally {
      held.server.close();
    }
  });

  it('not asked for (local\'s default) and busy: gives way with a warning, and the service still answers on PORT', async () => {
    // In process, on a port held here: the real default (6080) is fixed, and taking it would make two
    // checkouts' test runs on one machine fail each other. That local defaults to 6080 without
    // requiring it is test/config/playground-config.test.ts's.
    const held = await occupyPort();
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
    const app = Fastify();
    app.get('/heartbeat', async () => ({ success: 1 }));
    try {
      const forBrowsers = browserPort(app, { host: '127.0.0.1', port: held.port, required: false, playground: true }, logger);
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      await forBrowsers.listen();
      expect(lines).toEqual([
        expect.objectContaining({ level: 40, port: held.port, reason: 'EADDRINUSE', msg: 'no port for browsers: the playground and /docs are only on PORT (browsers refuse 6000); set PLAYGROUND_PORT to a free port' }),
      ]);
      expect((await fetch(`${url}/heartbeat`)).status).toBe(200);
    } finally {
      await app.close();
      held.server.close();
    }
  });

  it('is not opened outside local unless asked for', async () => {
    const svc = await start({});
    await svc.untilOutput('chat adapter listening');
    expect(svc.stdout()).not.toContain('open in a browser');
    svc.child.kill('SIGTERM');
    expect(await svc.exited).toBe(0);
  });
});
