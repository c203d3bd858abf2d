/**
 * The real process, as `npm start` runs it: `node dist/src/server.js` (built from the sources under
 * test by the global setup, test/helpers/build-service.ts) under the pinned Node (vitest's own
 * `process.execPath`), with the environment given on top of a minimal one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
/** What `npm start` runs (relative to REPO_ROOT): the JavaScript `npm run build` emits. */
export const SERVICE_ENTRY = 'dist/src/server.js';

export interface ServiceProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** The exit code (null when ended by a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves once stdout holds `text`; rejects when the process exits first or `ms` pass. */
  untilOutput(text: string, ms?: number): Promise<void>;
}

export interface SpawnOptions {
  /** The process's open-files limit (`ulimit -n`), as a pod's could be: the service fits its pools under it. */
  readonly openFilesLimit?: number;
}

export function spawnService(env: Record<string, string>, nodeArgs: readonly string[] = [], options: SpawnOptions = {}): ServiceProcess {
  const command = [process.execPath, ...nodeArgs, SERVICE_ENTRY];
  // Through sh only to lower the limit: `exec` leaves the service with the shell's pid.
  const [program, ...args] = options.openFilesLimit === undefined ? command : ['/bin/sh', '-c', 'ulimit -n "$0" && exec "$@"', String(options.openFilesLimit), ...command];
  const child = spawn(program!, args, {
    cwd: REPO_ROOT,
    // PATH and HOME only: nothing of the test runner's own environment leaks into the configuration.
    // No browser port unless a test names one: `local`'s default 6080 is fixed, and two checkouts
    // running their tests on one machine would take it from each other.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PLAYGROUND_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    async untilOutput(text, ms = 20_000) {
      const end = Date.now() + ms;
      while (!out.includes(text)) {
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited before "${text}":\n${out}${err}`);
        if (Date.now() > end) throw new Error(`no "${text}" within ${ms} ms:\n${out}${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}

/** Holds a loopback port (0: a free one) the way another program would. */
export async function occupyPort(port = 0): Promise<{ port: number; server: Server }> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, server };
}

/** Addresses for every party on a closed loopback port: no local stack starts, nothing is called at start-up. */
export function unusedPartyUrls(port: number): Record<string, string> {
  const base = `http://127.0.0.1:${port}`;
  return { ENGINE_URL: base, TRANSLATE_URL: base, HANDOFF_URL: base, GRAPHQL_URL: `${base}/graphql`, PROPERTY_API_URL: base };
}
