/**
 * docs/operations.md#handoffs-and-dead-letters with real processes (`node dist/src/server.js`, as `npm start` runs it): a service
 * killed with SIGKILL while a handoff is undelivered loses nothing. Locally, the next start on the
 * same DATA_DIR delivers it; with Redis, a second instance takes over the job the dead one held.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { handoffReceiverOn } from '../helpers/handoff-receiver.ts';
import { freePort, startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { graphqlStubHandler, startStubs, type Stubs } from '../helpers/stubbed-service.ts';
import { waitFor } from '../outbox/outbox-contract.ts';
import { SERVICE_ENTRY } from '../helpers/service-process.ts';

const MESSAGE = 'The water heater burst and the hallway is flooding';

let stubs: Stubs;
const dirs: string[] = [];
const running: ChildProcess[] = [];

beforeAll(async () => {
  stubs = await startStubs();
  stubs.graphql.handle(graphqlStubHandler());
  stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ intent: 'maintenance', sub_intent: 'emergency_maintenance' })));
});
afterAll(async () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(Object.values(stubs).map((s) => s.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chat-adapter-crash-'));
  dirs.push(dir);
  return dir;
}

interface Service {
  readonly url: string;
  readonly output: () => string;
  kill(): Promise<void>;
}

/** Starts the service process and waits until it listens. */
async function startService(env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      ENVIRONMENT: 'qa', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DISABLE_TRACING: 'true',
      ENGINE_URL: stubs.engine.url, GRAPHQL_URL: `${stubs.graphql.url}/graphql`, TRANSLATE_URL: stubs.translate.url,
      PROPERTY_API_URL: stubs.propertyApi.url, GRAPHQL_AUTHORIZATION: 'Bearer x', GRAPHQL_API_KEY: 'k',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => (output.includes('chat adapter listening') ? true : undefined), 30_000, 'the service to listen');
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async kill() {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

async function chatWithHandoff(service: Service): Promise<string> {
  const res = await fetch(`${service.url}/chat_adapter`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(chatRequest({ message: MESSAGE })),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { agent_handoff: unknown; trace_id: string };
  expect(body.agent_handoff).toEqual({ requested: true, reason: 'emergency_maintenance' });
  return body.trace_id;
}

/** The handoff_id of the first log line with `msg`. */
const handoffIdIn = (output: string, msg: string): string | undefined =>
  output.split('\n').filter((l) => l.includes(`"msg":"${msg}"`)).map((l) => (JSON.parse(l) as { handoff_id: string }).handoff_id)[0];

describe('SIGKILL with a handoff undelivered', () => {
  it('local outbox: the receiver is down, the process is killed; restarted on the same DATA_DIR, it delivers', async () => {
    const dataDir = tempDir();
    const receiver = handoffReceiverOn(await freePort());
    const env = { DATA_DIR: dataDir, HANDOFF_URL: receiver.url };
    const first = await startService(env);
    const traceId = await chatWithHandoff(first);
    await waitFor(() => handoffIdIn(first.output(), 'handoff delivery failed, will retry'), 10_000, 'a failed attempt');
    const handoffId = handoffIdIn(first.output(), 'handoff queued');
    await first.kill();

    await receiver.up();
    try {
      const second = await startService(env);
      await waitFor(() => receiver.accepted[0], 20_000, 'the delivery after the restart');
      expect(receiver.accepted).toHaveLength(1);
      expect(receiver.accepted[0]?.key).toBe(handoffId);
      expect(receiver.accepted[0]?.body).toMatchObject({ handoff_id: handoffId, trace_id: traceId, message: MESSAGE, sub_intent: 'emergency_maintenance' });
      await second.kill();
    } finally {
      await receiver.down();
    }
  }, 90_000);

  describe('with REDIS_URL', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startTestRedis();
    });
    afterAll(async () => redis?.stop());

    it('a second instance takes over the job the killed one was delivering (stalled-job recovery)', async () => {
      const receiver = handoffReceiverOn(await freePort());
      await receiver.up();
      receiver.setMode('hang');
      const shared = { REDIS_URL: redis.url, HANDOFF_URL: receiver.url, HANDOFF_LOCK_MS: '1000', HANDOFF_TIMEOUT_MS: '20000' };
      try {
        const first = await startService({ ...shared, DATA_DIR: tempDir() });
        await chatWithHandoff(first);
        // The first instance is delivering (the receiver holds the request) when it dies.
        await waitFor(() => receiver.requests[0], 10_000, 'the first attempt');
        const handoffId = receiver.requests[0]?.key;
        // The delivery can reach the receiver before the log line reaches the pipe on a busy machine.
        await waitFor(() => handoffIdIn(first.output(), 'handoff queued'), 5_000, 'the "handoff queued" line');
        expect(handoffIdIn(first.output(), 'handoff queued')).toBe(handoffId);
        expect(first.output()).toContain('"store":"shared"');
        await first.kill();

        receiver.setMode('accept');
        const second = await startService({ ...shared, DATA_DIR: tempDir() });
        await waitFor(() => receiver.accepted[0], 20_000, 'the take-over');
        expect(receiver.accepted).toHaveLength(1);
        expect(new Set(receiver.requests.map((r) => r.key))).toEqual(new Set([handoffId]));
        // Logged once the 202 is in, a moment after the receiver answered.
        expect(await waitFor(() => handoffIdIn(second.output(), 'handoff delivered'), 10_000, 'the delivered line')).toBe(handoffId);
        await second.kill();
      } finally {
        await receiver.down();
      }
    }, 90_000);
  });
});
