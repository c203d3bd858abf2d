/**
 * Starting and stopping the benchmark's processes: each on a free loopback port, ready when it
 * answers (`GET /heartbeat`, or a Redis PING), stopped with SIGTERM so that a CPU profile
 * (`--cpu-prof`) is written on the way out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, createWriteStream, openSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolve } from 'node:path';
import { freePort } from '../../test/helpers/free-port.ts';
import { locateRedisServer } from '../../test/helpers/redis-binary.ts';
import { redisAnswersPing } from '../../test/helpers/redis-ping.ts';

export interface Started {
  readonly name: string;
  readonly pid: number;
  readonly url: string;
  readonly port: number;
  /** Set once the process has exited (by itself, or killed by something else than stop()). */
  readonly exit: () => string | undefined;
  stop(): Promise<void>;
}

/** `exit code 1` or `signal SIGKILL`, once the child has exited. */
function exitOf(child: ChildProcess): () => string | undefined {
  let exit: string | undefined;
  child.once('exit', (code, signal) => (exit = signal === null ? `exit code ${code}` : `signal ${signal}`));
  return () => exit;
}


async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

async function waitUntil(ready: () => Promise<boolean>, child: ChildProcess, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${name} stopped before it was ready (${child.signalCode ?? `exit code ${child.exitCode}`})`);
    }
    if (await ready()) return;
    await sleep(50);
  }
  await stopChild(child, 1_000);
  throw new Error(`${name} was not ready within ${timeoutMs} ms`);
}

async function heartbeat(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/heartbeat`, { signal: AbortSignal.timeout(1_000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

export interface NodeProcessOptions {
  readonly name: string;
  readonly script: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly nodeArgs?: readonly string[];
  /** Where stdout (the process's log lines) goes; /dev/null when absent. */
  readonly stdoutFile?: string;
  /** stdout is a pipe, read by this process into stdoutFile (as a container's log collector reads it). */
  readonly stdoutThroughPipe?: boolean;
}

/** A Node process running `script` with a clean environment plus `env` (PORT is added). */
export async function startNode(options: NodeProcessOptions): Promise<Started> {
  const port = await freePort();
  const pipedInto = options.stdoutThroughPipe === true ? options.stdoutFile : undefined;
  const out = options.stdoutFile === undefined ? 'ignore' : pipedInto !== undefined ? 'pipe' : openSync(options.stdoutFile, 'w');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script], {
    cwd: options.cwd,
    // Only what the process is given: a developer's own REDIS_URL or OTEL_* never leaks in.
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, 'inherit'],
  });
  if (typeof out === 'number') closeSync(out);
  if (pipedInto !== undefined) child.stdout?.pipe(createWriteStream(pipedInto));
  const url = `http://127.0.0.1:${port}`;
  const exit = exitOf(child);
  await waitUntil(() => heartbeat(url), child, options.name, 30_000);
  return { name: options.name, pid: child.pid ?? 0, url, port, exit, stop: () => stopChild(child, 15_000) };
}

/**
 * A redis-server on a free port, without persistence: the one on PATH, or the one the tests fetch
 * from Debian into .cache/redis (test/helpers/redis-binary.ts), fetched here too when missing.
 */
export async function startRedis(): Promise<Started> {
  const binary = await locateRedisServer({ path: process.env['PATH'] ?? '', cacheDir: resolve(import.meta.dirname, '../../.cache/redis') });
  if (binary instanceof Error) throw new Error(`the redis variant needs a redis-server: ${binary.message}`);
  const port = await freePort();
  const child = spawn(binary.command, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
    env: { ...process.env, ...binary.env },
  });
  let spawnError: NodeJS.ErrnoException | undefined;
  child.on('error', (err) => (spawnError = err));
  await waitUntil(
    async () => {
      if (spawnError !== undefined) throw new Error(`redis-server: ${spawnError.message}`);
      return redisAnswersPing(port);
    },
    child,
    'redis-server',
    10_000,
  );
  return { name: 'redis', pid: child.pid ?? 0, url: `redis://127.0.0.1:${port}`, port, exit: exitOf(child), stop: () => stopChild(child, 5_000) };
}

/**
 * A Redis Cluster of 3 primaries with a replica each, on free ports, from the same programs as
 * startRedis (the tests' cluster helper, test/helpers/redis-cluster.ts, outside vitest).
 */
export async function startRedisCluster(): Promise<{ readonly nodes: string; stop(): Promise<void> }> {
  const binary = await locateRedisServer({ path: process.env['PATH'] ?? '', cacheDir: resolve(import.meta.dirname, '../../.cache/redis') });
  if (binary instanceof Error) throw new Error(`the redis-cluster variant needs redis-server and redis-cli: ${binary.message}`);
  const { startTestRedisCluster } = await import('../../test/helpers/redis-cluster.ts');
  const cluster = await startTestRedisCluster({ primaries: 3, replicasPerPrimary: 1, programs: binary });
  return { nodes: cluster.addresses.join(','), stop: () => cluster.stop() };
}
