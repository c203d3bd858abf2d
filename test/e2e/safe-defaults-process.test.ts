/**
 * Safe defaults of the real process (docs/configuration.md, docs/operations.md#open-files,
 * docs/operations.md#metrics): prod does not start without a handoff signing secret unless unsigned
 * delivery is chosen (then a warning); under `ulimit -n 256` MAX_CONNECTIONS is lowered with a
 * warning and more connections than fit are refused without the process running out of descriptors;
 * METRICS_PORT serves /metrics there and the service port does not.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.ts';
import { REPO_ROOT, SERVICE_ENTRY, spawnService, unusedPartyUrls } from '../helpers/service-process.ts';

const SECRETS = { GRAPHQL_AUTHORIZATION: 'Bearer x', GRAPHQL_API_KEY: 'k' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('ENVIRONMENT=prod and the handoff signing secret', () => {
  it('does not start without HANDOFF_SIGNING_SECRET: one line naming it and the way out, exit 1', async () => {
    const svc = spawnService({ ENVIRONMENT: 'prod', HOST: '127.0.0.1', PORT: String(await freePort()), ...SECRETS, ...unusedPartyUrls(await freePort()) });
    children.push(svc.child);
    expect(await svc.exited).toBe(1);
    expect(svc.stderr()).toBe(
      'chat-adapter: invalid configuration: HANDOFF_SIGNING_SECRET: is required when ENVIRONMENT=prod (or set HANDOFF_UNSIGNED=true to deliver handoffs unsigned)\n',
    );
  });

  it('starts with HANDOFF_UNSIGNED=true and says at start-up that handoffs go out unsigned', async () => {
    const svc = spawnService({ ENVIRONMENT: 'prod', HOST: '127.0.0.1', PORT: String(await freePort()), HANDOFF_UNSIGNED: 'true', DATA_DIR: '/tmp', ...SECRETS, ...unusedPartyUrls(await freePort()) });
    children.push(svc.child);
    try {
      await svc.untilOutput('chat adapter listening', 30_000);
      const warning = svc.stdout().split('\n').find((line) => line.includes('HANDOFF_UNSIGNED=true'));
      expect(warning).toBeDefined();
      expect(JSON.parse(warning!).level).toBe(40);
    } finally {
      svc.child.kill('SIGTERM');
      await svc.exited;
    }
  });
});

/** The service under `ulimit -n <limit>`, as a shell would start it. */
function spawnLimited(limit: number, env: Record<string, string>) {
  const child = spawn('bash', ['-c', `ulimit -n ${limit} && exec "$0" "$1"`, process.execPath, SERVICE_ENTRY], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return { child, output: () => out };
}

/** Opens a connection and sends the start of a request that never ends: it stays open until dropped by either side. */
function holdConnection(port: number): Promise<{ socket: Socket; closedByServer: Promise<boolean> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const closedByServer = new Promise<boolean>((done) => socket.once('close', () => done(true)));
    socket.on('error', () => {});
    socket.once('connect', () => {
      socket.write('POST /chat_adapter HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
      resolve({ socket, closedByServer });
    });
    socket.once('close', () => resolve({ socket, closedByServer }));
  });
}

async function get(port: number, path: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  await res.arrayBuffer();
  return res.status;
}

describe('under `ulimit -n 256`', () => {
  it('lowers MAX_CONNECTIONS with a warning, refuses connections past it and keeps serving (no EMFILE)', async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const svc = spawnLimited(256, {
      ENVIRONMENT: 'qa', HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: String(metricsPort), DATA_DIR: '/tmp',
      CALLER_API_KEYS: 'web:web-KEY-aaaaaaaaaaaaaaaaaaaa', ...SECRETS, ...unusedPartyUrls(await freePort()),
    });
    const exited = once(svc.child, 'exit');
    for (let i = 0; i < 600 && !svc.output().includes('chat adapter listening'); i++) await sleep(50);
    expect(svc.output()).toContain('chat adapter listening');
    const warning = svc.output().split('\n').find((line) => line.includes('open-files limit is too low'));
    expect(warning).toBeDefined();
    expect(JSON.parse(warning!).lowered).toContain('MAX_CONNECTIONS 10000 -> 96');

    // Far more connections than descriptors: each past the ceiling is closed by the server at once.
    const held = await Promise.all(Array.from({ length: 300 }, () => holdConnection(port)));
    // Long enough for the overload sampler (process.memoryUsage every second) to run with them open.
    await sleep(2_500);
    const open = held.filter(({ socket }) => !socket.destroyed && !socket.closed);
    expect(open.length).toBeGreaterThan(0);
    expect(open.length).toBeLessThanOrEqual(96);
    expect(svc.child.exitCode).toBeNull();
    expect(svc.output()).not.toContain('EMFILE');
    for (const { socket } of held) socket.destroy();
    await sleep(300);
    // Still serving: probes on the service port, the scrape on its own port only.
    expect(await get(port, '/heartbeat')).toBe(200);
    expect(await get(port, '/metrics')).toBe(404);
    expect(await get(metricsPort, '/metrics')).toBe(200);
    const openMetrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { accept: 'application/openmetrics-text; version=1.0.0' } });
    expect(openMetrics.headers.get('content-type')).toContain('application/openmetrics-text');
    expect(await openMetrics.text()).toMatch(/# EOF\s*$/);
    svc.child.kill('SIGTERM');
    expect((await exited)[0]).toBe(0);
    expect(svc.output()).not.toContain('EMFILE');
  }, 60_000);
});
