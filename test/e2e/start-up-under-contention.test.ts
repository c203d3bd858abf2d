/**
 * Ready means able to serve (docs/operations.md#starting): on a machine whose every core is busy, a
 * freshly started instance refuses none of the chats sent the moment its port opens. Its start-up
 * work (loading, warming, the start-up collection) is done before it listens, and is never taken
 * for event-loop overload by the overload sampler (OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, on by default).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, newSessionId } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/redis-server.ts';
import { spawnService, type ServiceProcess } from '../helpers/service-process.ts';
import { startStubs, stubPartiesEnv, type Stubs } from '../helpers/stubbed-service.ts';

const CHATS = 32;
let stubs: Stubs;
const busy: ChildProcess[] = [];
let service: ServiceProcess | undefined;

beforeAll(async () => {
  stubs = await startStubs();
});
afterAll(async () => {
  for (const child of busy) child.kill('SIGKILL');
  if (service !== undefined && service.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  await Promise.all(Object.values(stubs).map((stub) => stub.close()));
});

/** Resolves once a TCP connection to the port succeeds, trying every few milliseconds. */
async function untilPortOpens(port: number, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > end) throw new Error(`port ${port} did not open within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('a fresh instance on a machine with every core busy', () => {
  it('answers every chat sent as soon as its port opens: none is refused as overloaded', async () => {
    // Four busy loops per core: the instance starts with a fifth of a core or less, as in a rolling
    // restart on a busy node, so its start-up work (the collection before it listens) blocks its
    // event loop for longer than the overload sampler's whole one-second window.
    for (let i = 0; i < 4 * availableParallelism(); i += 1) busy.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
    const port = await freePort();
    service = spawnService({ ENVIRONMENT: 'qa', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: '/tmp', RATE_LIMIT_SESSION_PER_MIN: '0', ...stubPartiesEnv(stubs) });
    await untilPortOpens(port, 60_000);
    const answers = await Promise.all(
      Array.from({ length: CHATS }, async () => {
        const res = await fetch(`http://127.0.0.1:${port}/chat_adapter`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(chatRequest({ session_id: newSessionId() })),
        });
        return { status: res.status, body: await res.text() };
      }),
    );
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toEqual([]);
    // Ready too: /ready says so as soon as it answers at all.
    expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
  }, 120_000);
});
