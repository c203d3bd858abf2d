import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { REPO_ROOT, spawnService, type ServiceProcess } from '../helpers/service-process.ts';
import { startStubs, stubPartiesEnv, type Stubs } from '../helpers/stubbed-service.ts';

/**
 * docs/api.md#limits: inside the pod's 512 MiB with its 384 MiB heap, the process survives whatever valid
 * chats callers send. Started exactly as the pod starts it: the image's command line (Dockerfile
 * CMD) and the pod's NODE_OPTIONS (deploy/kubernetes), read from those files. Each chat is a new
 * session with a maximum-length emoji message, and the engine answers each with a large (in
 * contract, about 200 KB) reply: before the byte bound, every such session stayed in the cache
 * (bounded at 20,000 sessions only), and the heap ran out after about 1,500 chats.
 */
const CHATS = 2_500;
const CONCURRENCY = 16;
const MIB = 1024 * 1024;

function imageCommandArgs(): string[] {
  const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
  const cmd = [...dockerfile.matchAll(/^CMD (\[.*\])$/gm)].at(-1)?.[1];
  if (cmd === undefined) throw new Error('no CMD in the Dockerfile');
  const args = JSON.parse(cmd) as string[];
  // ["node", ...flags, "dist/src/server.js"]: the flags, without the program and the entry.
  return args.slice(1, -1);
}

function podNodeOptions(): string {
  const deployment = readFileSync(join(REPO_ROOT, 'deploy/kubernetes/base/deployment.yaml'), 'utf8');
  const value = /- name: NODE_OPTIONS\s+value: (\S+)/.exec(deployment)?.[1];
  if (value === undefined) throw new Error('no NODE_OPTIONS in the deployment');
  return value;
}

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

let stubs: Stubs;
let service: ServiceProcess;
let dataDir: string;
let base: string;

beforeAll(async () => {
  stubs = await startStubs();
  // One body for every engine call: an in-contract answer with a 50,000-emoji context (~200 KB).
  const big = JSON.stringify(engineReply({ context: '😀'.repeat(50_000) }));
  stubs.engine.handle((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(big));
  dataDir = mkdtempSync(join(tmpdir(), 'chat-adapter-heap-'));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  expect(podNodeOptions()).toBe('--max-old-space-size=384');
  service = spawnService(
    {
      ...stubPartiesEnv(stubs),
      NODE_OPTIONS: podNodeOptions(),
      ENVIRONMENT: 'qa', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn',
      // Chats are never shed here: each one must reach the cache for the test to prove anything.
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    },
    imageCommandArgs(),
  );
  await service.untilOutput('"level":', 30_000).catch(() => undefined);
  for (let i = 0; i < 300; i += 1) {
    if (await fetch(`${base}/heartbeat`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 60_000);

afterAll(async () => {
  if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
  await Promise.all(Object.values(stubs).map((s) => s.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the heap ceiling of the Kubernetes pod', () => {
  it(`survives ${CHATS} maximum-length emoji chats with large engine answers, RSS under 512 MiB`, async () => {
    const pid = service.child.pid!;
    let peakRss = rssBytes(pid);
    const sampler = setInterval(() => {
      try {
        peakRss = Math.max(peakRss, rssBytes(pid));
      } catch {
        // the process is gone: the assertions below say so
      }
    }, 100);
    const dispatcher = new Agent({ connections: CONCURRENCY });
    const message = '😀'.repeat(4000);
    const statuses = new Map<number | string, number>();
    let next = 0;
    const worker = async () => {
      while (next < CHATS) {
        next += 1;
        const status = await request(`${base}/chat_adapter`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(chatRequest({ message, spanish_support_enabled: false })),
          dispatcher,
        }).then(async (r) => {
          await r.body.dump();
          return r.statusCode;
        }, () => 'connection failed');
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 'connection failed') return;
      }
    };
    try {
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    } finally {
      clearInterval(sampler);
      await dispatcher.close();
    }
    expect(service.child.exitCode, service.stderr().slice(-2000)).toBeNull();
    expect(Object.fromEntries(statuses)).toEqual({ 200: CHATS });
    expect((await fetch(`${base}/heartbeat`)).status).toBe(200);
    expect(peakRss).toBeLessThan(512 * MIB);
    process.stdout.write(`heap-ceiling: ${CHATS} chats, peak RSS ${Math.round(peakRss / MIB)} MiB\n`);
  }, 120_000);
});
