/**
 * The real service as `npm start` runs it (`node dist/src/server.js`), with the embedded local stack on
 * free ports and a throw-away data folder, for the browser test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVICE_ENTRY } from '../helpers/service-process.ts';

export interface ServiceProcess {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /** The browser-safe port's origin (PLAYGROUND_PORT) from the start-up line "open in a browser". */
  readonly browserUrl: string | undefined;
  /** Everything the process wrote so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * The service's own address from its JSON log lines (PORT=0: a free port): the "listening" line with
 * a `url` that is not one of the embedded parties' ("local party listening", with a `party`).
 */
function listeningUrl(output: string): string | undefined {
  for (const line of output.split('\n')) {
    try {
      const entry = JSON.parse(line) as { msg?: unknown; url?: unknown; party?: unknown };
      if (typeof entry.msg === 'string' && entry.msg.includes('listening') && entry.party === undefined && typeof entry.url === 'string') return entry.url;
    } catch {
      // not a JSON line
    }
  }
  return undefined;
}

/** The origin of the `docs` address in the "open in a browser" line. */
function browserOrigin(output: string): string | undefined {
  for (const line of output.split('\n')) {
    if (!line.includes('"msg":"open in a browser"')) continue;
    const docs = (JSON.parse(line) as { docs?: unknown }).docs;
    if (typeof docs === 'string') return new URL(docs).origin;
  }
  return undefined;
}

/** Resolves once the service listens (and, with PLAYGROUND_PORT set, once its browser port is open too). */
export async function startServiceProcess(env: Record<string, string> = {}, timeoutMs = 60_000): Promise<ServiceProcess> {
  const wantsBrowserPort = env['PLAYGROUND_PORT'] !== undefined && env['PLAYGROUND_PORT'] !== '0';
  const dataDir = mkdtempSync(join(tmpdir(), 'chat-adapter-browser-'));
  const child: ChildProcess = spawn(process.execPath, [SERVICE_ENTRY], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: { ...process.env, ENVIRONMENT: 'local', PORT: '0', PLAYGROUND_PORT: '0', HOST: '127.0.0.1', LOCAL_STACK_BASE_PORT: '0', LOCAL_DATA_DIR: dataDir, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not say it was listening within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = listeningUrl(output);
      if (found !== undefined && (!wantsBrowserPort || browserOrigin(output) !== undefined)) {
        clearTimeout(timer);
        resolveUrl(found);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${code}) before listening:\n${output}`));
    });
  }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  return { url, browserUrl: browserOrigin(output), output: () => output, stop };
}
