/**
 * The real process receiving its stop signal while a chat is in flight, as `npm start` runs it:
 * the chat still gets its answer and is stored, the log says so, the process exits 0, whether the
 * signal arrives once or twice (a signal to the process group reaches Node and also npm, which
 * forwards it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { startStubs, stubPartiesEnv, type Stubs } from '../helpers/stubbed-service.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { REPO_ROOT, SERVICE_ENTRY } from '../helpers/service-process.ts';

let stubs: Stubs;
const dirs: string[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  stubs = await startStubs();
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});
afterAll(async () => {
  await Promise.all(Object.values(stubs).map((s) => s.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Running {
  readonly child: ChildProcess;
  readonly port: number;
  output(): string;
  readonly exited: Promise<number | null>;
}

/** `command` (argv) in its own process group, as a terminal or systemd starts it, with the stubs as parties. */
async function start(command: readonly string[]): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'chat-adapter-shutdown-'));
  dirs.push(dataDir);
  const child = spawn(command[0]!, command.slice(1), {
    cwd: REPO_ROOT,
    detached: true,
    env: {
      PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '',
      ENVIRONMENT: 'qa', PORT: String(port), HOST: '127.0.0.1', LOCAL_DATA_DIR: dataDir, DATA_DIR: dataDir, LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: '5000',
      ...stubPartiesEnv(stubs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  for (let i = 0; i < 300 && !output.includes('chat adapter listening'); i++) {
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  expect(output).toContain('chat adapter listening');
  return { child, port, output: () => output, exited };
}

/** A chat the engine answers after `ms`, sent once the previous requests are done; resolves when the engine has it. */
async function slowChat(port: number, message: string, ms: number) {
  stubs.engine.handle(async (_req, res) => {
    await sleep(ms);
    sendJson(res, 200, engineReply());
  });
  const asked = stubs.engine.requests.length;
  const answer = fetch(`http://127.0.0.1:${port}/chat_adapter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(chatRequest({ message })),
  });
  answer.catch(() => {}); // awaited by the caller; this keeps an early failure from going unhandled meanwhile
  for (let i = 0; i < 200 && stubs.engine.requests.length === asked; i++) await sleep(20);
  expect(stubs.engine.requests.length).toBeGreaterThan(asked);
  return { answer };
}

const stored = (message: string) =>
  stubs.graphql.requests.some((r) => JSON.stringify(r.body).includes('createServiceMessage') && JSON.stringify(r.body).includes(message));

describe('stopping the service with a chat in flight', () => {
  it('npm start, SIGTERM to its process group (npm forwards it: Node gets it twice): answered 200, stored, logged, exit 0', async () => {
    const running = await start(['npm', 'start']);
    const message = 'A question asked just before the group was signalled';
    const inFlight = await slowChat(running.port, message, 1_000);
    process.kill(-running.child.pid!, 'SIGTERM');

    const res = await inFlight.answer;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { response: string }).response).toBe(engineReply().response);
    expect(await running.exited, running.output()).toBe(0);
    expect(stored(message)).toBe(true);
    expect(running.output()).toContain('shutting down: chats in flight are answered first');
    expect(running.output()).toContain('service stopped');
    expect(running.output()).not.toContain('"level":50');
    await expect(fetch(`http://127.0.0.1:${running.port}/heartbeat`)).rejects.toThrow();
  }, 60_000);

  it('node dist/src/server.js, SIGTERM then SIGINT (a second signal changes nothing): answered 200, exit 0, the second logged as ignored', async () => {
    const running = await start([process.execPath, SERVICE_ENTRY]);
    const message = 'A question asked before two signals';
    const inFlight = await slowChat(running.port, message, 1_000);
    running.child.kill('SIGTERM');
    await sleep(100);
    running.child.kill('SIGINT');

    const res = await inFlight.answer;
    expect(res.status).toBe(200);
    expect(await running.exited, running.output()).toBe(0);
    expect(stored(message)).toBe(true);
    expect(running.output()).toContain('shutdown already under way; signal ignored');
  }, 60_000);

  it('npm run dev, SIGTERM to npm alone: the service closes gracefully and no process of the group is left', async () => {
    const running = await start(['npm', 'run', 'dev']);
    const group = running.child.pid!;
    running.child.kill('SIGTERM');
    expect(await running.exited, running.output()).toBe(0);
    const groupGone = async () => {
      for (let i = 0; i < 100; i++) {
        try {
          process.kill(-group, 0);
        } catch {
          return true; // ESRCH: no process left in the group
        }
        await sleep(100);
      }
      return false;
    };
    expect(await groupGone(), running.output()).toBe(true);
    expect(running.output()).toContain('service stopped');
  }, 60_000);
});
