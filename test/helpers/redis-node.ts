/**
 * The parts test/helpers/redis-cluster.ts and redis-sentinel.ts share: one server process on a
 * loopback port that can be killed (SIGKILL) and started again on the same port and folder, and
 * one-shot admin commands over a connection of their own. Free of vitest, like the two helpers, so
 * that the benchmark (scripts/bench/) can start the same topologies.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createConnection } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import type { RedisFlavour } from './redis-binary.ts';
import { freePort } from './free-port.ts';

export type { RedisFlavour };

/** A node's address as ioredis takes it (`new Redis.Cluster([...])`, `sentinels: [...]`). */
export interface RedisAddress {
  readonly host: string;
  readonly port: number;
}

export const LOOPBACK = '127.0.0.1';

/** How to start the server and its client (test/helpers/redis-binary.ts's RedisBinary fits). */
export interface RedisPrograms {
  readonly flavour: RedisFlavour;
  readonly command: string;
  readonly cli: string;
  readonly env: Readonly<Record<string, string>>;
  readonly version: string;
}

/**
 * `programs` when given (a script outside vitest: test/helpers/redis-binary.ts's locateRedisServer),
 * else this test run's (REDIS_FLAVOUR), which `flavour`, when given, must match.
 */
export async function programsFor(programs: RedisPrograms | undefined, flavour: RedisFlavour | undefined): Promise<RedisPrograms> {
  if (programs !== undefined) {
    if (flavour !== undefined && flavour !== programs.flavour) throw new Error(`the programs given are ${programs.flavour}, not ${flavour}`);
    return programs;
  }
  // Loaded only then: vitest's inject() exists inside a test run, not in a script.
  const { redisPrograms } = await import('./redis-programs.ts');
  return redisPrograms(flavour);
}

/** `count` distinct loopback ports, free when asked. */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** Polls `probe` every 50 ms until it returns something other than undefined; throws after `ms`. */
export async function pollUntil<T>(probe: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > end) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${ms} ms waiting for ${what}${why}`);
    }
    await sleep(50);
  }
}

/** One command to the node on `port`, on a connection of its own. */
export type AdminCall = (port: number, command: string, ...args: Array<string | number>) => Promise<unknown>;

/** Admin calls with `password` (AUTH) and over TLS trusting `tlsCa`, when given; RESP2, so replies are plain strings and arrays. */
export function adminCaller(password?: string, tlsCa?: string): AdminCall {
  return async (port, command, ...args) => {
    const client = new Redis({
      host: LOOPBACK,
      port,
      ...(password === undefined ? {} : { password }),
      ...(tlsCa === undefined ? {} : { tls: { ca: tlsCa } }),
      protocol: 2,
      lazyConnect: true,
      connectTimeout: 1000,
      commandTimeout: 2000,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      enableReadyCheck: false,
      retryStrategy: () => null,
    });
    client.on('error', () => {
      // Reported by the rejected call below.
    });
    try {
      await client.connect();
      return await client.call(command, ...args);
    } finally {
      client.disconnect();
    }
  };
}

/** An admin call to a node without a password. */
export const adminCall: AdminCall = adminCaller();

/** `field:value` lines of an INFO or CLUSTER INFO answer. */
export function infoFields(text: unknown): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of String(text).split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0) fields.set(line.slice(0, at), line.slice(at + 1));
  }
  return fields;
}

/** The node on `port` is a replica whose link to its primary is up and whose full sync is done. */
export async function replicaInSync(port: number, call: AdminCall = adminCall): Promise<boolean> {
  const info = infoFields(await call(port, 'INFO', 'replication'));
  return info.get('role') === 'slave' && info.get('master_link_status') === 'up' && info.get('master_sync_in_progress') === '0';
}

/** The ROLE answer's first word: `master`, `slave` (a replica) or `sentinel`. */
export async function roleOf(port: number, call: AdminCall = adminCall): Promise<string> {
  const role = (await call(port, 'ROLE')) as unknown[];
  return String(role[0]);
}

/** True when the server on `port` answers PING, or refuses it for want of a password (it is up). */
function answersPing(port: number, tls: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    // Whether it is up, not whom it is: the certificate is checked by the clients that use it.
    const socket = tls ? tlsConnect({ host: LOOPBACK, port, rejectUnauthorized: false }) : createConnection({ host: LOOPBACK, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on(tls ? 'secureConnect' : 'connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(/^(\+PONG|-NOAUTH)/.test(data.toString())));
  });
}

/** One server process: `args` are its command line after the program (a config file first, if any). */
export interface RedisNodeProcess {
  readonly port: number;
  readonly running: boolean;
  start(): Promise<void>;
  /** SIGKILL, as a crashed host or OOM kill: no goodbye to clients, replicas or the cluster. */
  kill(): Promise<void>;
}

/** `tls`: the node listens with TLS only (its args say so), and is probed that way. */
export function redisNodeProcess(programs: RedisPrograms, port: number, dir: string, args: readonly string[], tls = false): RedisNodeProcess {
  let child: ChildProcess | undefined;
  const logFile = join(dir, 'redis.log');
  const logTail = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n').slice(-5).join(' | ') : 'no log');
  return {
    port,
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    async start() {
      let spawnError: Error | undefined;
      child = spawn(programs.command, [...args, '--logfile', logFile], { cwd: dir, stdio: 'ignore', env: { ...process.env, ...programs.env } });
      child.on('error', (err) => {
        spawnError = err;
      });
      for (let i = 0; i < 200; i += 1) {
        if (await answersPing(port, tls)) return;
        if (spawnError !== undefined || child.exitCode !== null) break;
        await sleep(50);
      }
      throw new Error(`${programs.command} did not answer on port ${port}: ${spawnError?.message ?? logTail()}`);
    },
    async kill() {
      const running = child;
      child = undefined;
      if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGKILL');
      await exited;
    },
  };
}
