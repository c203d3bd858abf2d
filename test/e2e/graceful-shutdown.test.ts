import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { graphqlStubHandler, startStubs, type Stubs } from '../helpers/stubbed-service.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { SERVICE_ENTRY } from '../helpers/service-process.ts';

/**
 * The real process (`node dist/src/server.js`, as `npm start` runs it) receiving SIGTERM while a chat is
 * in flight: the chat still gets its answer, new connections are refused, the process exits 0.
 */
let stubs: Stubs;
let server: ChildProcess;
let port: number;
let dataDir: string;
let output = '';

beforeAll(async () => {
  stubs = await startStubs();
  stubs.graphql.handle(graphqlStubHandler());
  port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'chat-adapter-shutdown-'));
  server = spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      ENVIRONMENT: 'qa', PORT: String(port), HOST: '127.0.0.1', LOCAL_DATA_DIR: dataDir, DATA_DIR: dataDir,
      ENGINE_URL: stubs.engine.url, GRAPHQL_URL: `${stubs.graphql.url}/graphql`, HANDOFF_URL: stubs.handoff.url,
      TRANSLATE_URL: stubs.translate.url, PROPERTY_API_URL: stubs.propertyApi.url,
      GRAPHQL_AUTHORIZATION: 'Bearer x', GRAPHQL_API_KEY: 'k', LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (let i = 0; i < 100 && !output.includes('chat adapter listening'); i++) await new Promise((r) => setTimeout(r, 100));
});
afterAll(async () => {
  if (server.exitCode === null) server.kill('SIGKILL');
  await Promise.all(Object.values(stubs).map((s) => s.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGTERM', () => {
  it('finishes the chat in flight, then exits 0', async () => {
    expect(output).toContain('chat adapter listening');
    stubs.engine.handle(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 800));
      sendJson(res, 200, engineReply());
    });
    const inFlight = fetch(`http://127.0.0.1:${port}/chat_adapter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatRequest()),
    });
    for (let i = 0; i < 50 && stubs.engine.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    const exited = once(server, 'exit');
    server.kill('SIGTERM');

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { response: string }).response).toBe(engineReply().response);
    const [code] = await exited;
    expect(code, output).toBe(0);
    expect(output).toContain('shutting down');
    expect(output).toContain('service stopped');
    await expect(fetch(`http://127.0.0.1:${port}/heartbeat`)).rejects.toThrow();
  });
});
