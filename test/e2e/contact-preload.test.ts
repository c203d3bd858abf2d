import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { freePort } from '../helpers/redis-server.ts';
import { spawnService, type ServiceProcess } from '../helpers/service-process.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubs, stubPartiesEnv, type Stubs } from '../helpers/stubbed-service.ts';

/**
 * docs/api.md#limits: loading a library on first use counts as blocking the loop. The contact finders'
 * libraries are loaded before the instance listens, not on the first contact chat.
 */
const RECORDER = resolve(import.meta.dirname, '../helpers/record-loaded-modules.ts');
const CONTACT_LIBRARIES = ['/node_modules/compromise/', '/node_modules/libphonenumber-js/'];

let stubs: Stubs | undefined;
let service: ServiceProcess | undefined;
let dir: string | undefined;
afterEach(async () => {
  if (service !== undefined && service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
  await Promise.all(Object.values(stubs ?? {}).map((s) => s.close()));
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

async function startRecorded(): Promise<{ base: string; modulesFile: string }> {
  stubs = await startStubs();
  dir = mkdtempSync(join(tmpdir(), 'chat-adapter-preload-'));
  const port = await freePort();
  const modulesFile = join(dir, 'modules.txt');
  service = spawnService(
    { ...stubPartiesEnv(stubs), ENVIRONMENT: 'qa', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, RECORD_LOADED_MODULES: modulesFile, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' },
    ['--import', RECORDER],
  );
  await service.untilOutput('chat adapter listening', 30_000);
  return { base: `http://127.0.0.1:${port}`, modulesFile };
}

describe('contact finders at start-up', () => {
  it('are loaded before the instance listens, with no contact chat served', async () => {
    const { modulesFile } = await startRecorded();
    service!.child.kill('SIGTERM');
    expect(await service!.exited).toBe(0);
    const modules = readFileSync(modulesFile, 'utf8').split('\n');
    for (const library of CONTACT_LIBRARIES) expect(modules.some((url) => url.includes(library)), library).toBe(true);
  }, 60_000);

  it('serve the first contact chat without a load: the step takes milliseconds and /heartbeat answers meanwhile', async () => {
    const { base } = await startRecorded();
    // An ordinary chat first: the request path's own first-run compilation is not what is measured.
    const plain = await fetch(`${base}/chat_adapter`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(chatRequest()) });
    expect(plain.status).toBe(200);
    await fetch(`${base}/heartbeat`);
    stubs!.engine.handle((_req, res) => sendJson(res, 200, engineReply({ intent: 'contact', sub_intent: 'contact' })));
    let slowestHeartbeatMs = 0;
    let chatting = true;
    const probing = (async () => {
      while (chatting) {
        const started = performance.now();
        await fetch(`${base}/heartbeat`);
        slowestHeartbeatMs = Math.max(slowestHeartbeatMs, performance.now() - started);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const res = await fetch(`${base}/chat_adapter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(chatRequest({ message: "Hi, I'm Maria Lopez, call me at 305-482-7719" })),
    });
    chatting = false;
    await probing;
    expect(res.status).toBe(200);
    const body = (await res.json()) as { latency: { steps: Record<string, number> } };
    // Loaded on first use, the step took 300-1700 ms.
    expect(body.latency.steps['extractContact']).toBeLessThan(150);
    expect(slowestHeartbeatMs).toBeLessThan(300);
  }, 60_000);
});
