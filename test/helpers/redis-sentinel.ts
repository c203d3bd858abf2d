/**
 * A real Sentinel set for tests: one primary, one replica (`--replicaof`) and three sentinels
 * (`<server> <conf> --sentinel`, quorum 2) on free loopback ports, with a short
 * down-after-milliseconds so that a killed primary is replaced in a few seconds. The flavour
 * (Redis or Valkey) is the run's (REDIS_FLAVOUR, see test/helpers/global-setup.ts), or a script
 * passes the programs it found (test/helpers/redis-binary.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestTlsFiles, tlsServerArgs, type TestTlsFiles } from './redis-tls.ts';
import {
  adminCaller,
  freePorts,
  LOOPBACK,
  pollUntil,
  programsFor,
  redisNodeProcess,
  replicaInSync,
  roleOf,
  type AdminCall,
  type RedisAddress,
  type RedisFlavour,
  type RedisNodeProcess,
  type RedisPrograms,
} from './redis-node.ts';

export type { AdminCall, RedisAddress, RedisFlavour, RedisPrograms };

export interface TestRedisSentinelOptions {
  /** Must be the run's flavour when given (REDIS_FLAVOUR); the run's by default. */
  readonly flavour?: RedisFlavour;
  /** The programs to start, for a script outside vitest; a test run's own by default. */
  readonly programs?: RedisPrograms;
  /** The master name the sentinels monitor. Default `chat-adapter`. */
  readonly name?: string;
  /** `down-after-milliseconds`: how long a silent primary takes to be judged down. Default 1000. */
  readonly downAfterMs?: number;
  /** `failover-timeout`. Default 3000. */
  readonly failoverTimeoutMs?: number;
  /** `requirepass` (and `masterauth`) on the primary and replica; the sentinels get it as `auth-pass`. */
  readonly password?: string;
  /** `requirepass` on the sentinels themselves (ioredis `sentinelPassword`). */
  readonly sentinelPassword?: string;
  /** TLS only, on the data nodes, replication and the sentinels (test/helpers/redis-tls.ts); off by default. */
  readonly tls?: boolean;
}

/** The primary after a failover, and ms from the kill until every live sentinel named it. */
export interface Failover extends RedisAddress {
  readonly ms: number;
  /** performance.now() when the failover was seen (to compare with a test's own timings). */
  readonly at: number;
}

export interface TestRedisSentinel {
  readonly flavour: RedisFlavour;
  /** The server's `--version` line. */
  readonly version: string;
  /** The master name (ioredis `name`, REDIS_SENTINEL_NAME). */
  readonly name: string;
  /** The three sentinels (ioredis `sentinels`). */
  readonly sentinels: readonly RedisAddress[];
  /** The same as `host:port` strings. */
  readonly sentinelAddresses: readonly string[];
  /** The two data nodes as started: [first primary, first replica]. */
  readonly dataNodes: readonly RedisAddress[];
  /** One command to a data node (with the password, if any), on a connection of its own. */
  readonly adminCall: AdminCall;
  /** One command to a sentinel (with the sentinel password, if any). */
  readonly sentinelCall: AdminCall;
  /** With `tls`: the certificate authority's PEM text, for ioredis's `tls` and `sentinelTLS` (`{ ca }`). */
  readonly tlsCa: string | undefined;
  /** With `tls`: the same as a file, for a service process's configuration. */
  readonly tlsCaFile: string | undefined;
  /** The primary the sentinels name now. */
  primary(): Promise<RedisAddress>;
  /** SIGKILL the primary the sentinels name now; returns its address. */
  killPrimary(): Promise<RedisAddress>;
  /** Until every live sentinel names a primary other than the killed one, and that node answers ROLE master. */
  waitForFailover(timeoutMs?: number): Promise<Failover>;
  /** Starts a killed data node again on its port (the sentinels turn a former primary into a replica). */
  startNode(port: number): Promise<void>;
  /** Until the data node on `port` is a replica in sync (the sentinels look at a returning node within 10 s). */
  waitForReplica(port: number, timeoutMs?: number): Promise<void>;
  /** SIGKILL every process and delete their folders. */
  stop(): Promise<void>;
}

function dataArgs(port: number, password: string | undefined, tls: TestTlsFiles | undefined, replicaOf?: number): string[] {
  const listen = tls === undefined ? ['--port', String(port)] : tlsServerArgs(tls, port, false);
  const replica = replicaOf === undefined ? [] : ['--replicaof', LOOPBACK, String(replicaOf)];
  const auth = password === undefined ? [] : ['--requirepass', password, '--masterauth', password];
  // A replica's first full sync starts at once, not after the default 5 s wait for more replicas.
  return [...listen, '--bind', LOOPBACK, '--save', '', '--appendonly', 'no', '--repl-diskless-sync-delay', '0', ...auth, ...replica];
}

/** Quoted for a configuration file (a password may hold spaces or quotes). */
const quoted = (value: string) => JSON.stringify(value);

/** ['--a', '1', '--b', '2'] as [['--a', '1'], ['--b', '2']]. */
function chunks(args: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < args.length; i += 2) pairs.push([args[i]!, args[i + 1]!]);
  return pairs;
}

/** A sentinel rewrites its configuration file, so each has one of its own. */
function sentinelConfig(dir: string, port: number, name: string, primaryPort: number, options: TestRedisSentinelOptions, tls: TestTlsFiles | undefined): string {
  const file = join(dir, 'sentinel.conf');
  // The same options as a data node's, as configuration lines; tls-replication: to the data nodes and each other over TLS.
  const listen = tls === undefined ? [`port ${port}`] : chunks(tlsServerArgs(tls, port, false)).map(([k, v]) => `${k.slice(2)} ${quoted(v)}`);
  const lines = [
    ...listen,
    `bind ${LOOPBACK}`,
    `dir ${dir}`,
    `sentinel monitor ${name} ${LOOPBACK} ${primaryPort} 2`,
    `sentinel down-after-milliseconds ${name} ${options.downAfterMs ?? 1000}`,
    `sentinel failover-timeout ${name} ${options.failoverTimeoutMs ?? 3000}`,
    `sentinel parallel-syncs ${name} 1`,
    ...(options.password === undefined ? [] : [`sentinel auth-pass ${name} ${quoted(options.password)}`]),
    // The sentinels talk to each other with the password they require.
    ...(options.sentinelPassword === undefined ? [] : [`requirepass ${quoted(options.sentinelPassword)}`, `sentinel sentinel-pass ${quoted(options.sentinelPassword)}`]),
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** SENTINEL MASTER's flat [field, value, ...] answer as a map. */
async function sentinelMaster(call: AdminCall, port: number, name: string): Promise<Map<string, string>> {
  const flat = (await call(port, 'SENTINEL', 'MASTER', name)) as string[];
  const fields = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) fields.set(String(flat[i]), String(flat[i + 1]));
  return fields;
}

async function namedPrimary(call: AdminCall, sentinelPort: number, name: string): Promise<RedisAddress> {
  const [host, port] = (await call(sentinelPort, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)) as [string, string];
  return { host, port: Number(port) };
}

/** Every sentinel knows the primary, its replica and the two other sentinels. */
async function sentinelsAgree(call: AdminCall, sentinelPorts: readonly number[], name: string): Promise<boolean> {
  for (const port of sentinelPorts) {
    const master = await sentinelMaster(call, port, name);
    if (master.get('flags') !== 'master' || master.get('num-slaves') !== '1' || master.get('num-other-sentinels') !== '2') return false;
  }
  return true;
}

export async function startTestRedisSentinel(options: TestRedisSentinelOptions = {}): Promise<TestRedisSentinel> {
  const programs = await programsFor(options.programs, options.flavour);
  const name = options.name ?? 'chat-adapter';
  const [primaryPort, replicaPort, ...sentinelPorts] = (await freePorts(5)) as [number, number, number, number, number];
  const root = mkdtempSync(join(tmpdir(), `chat-adapter-${programs.flavour}-sentinel-`));
  const tls = options.tls === true ? await makeTestTlsFiles(root) : undefined;
  const dataCall = adminCaller(options.password, tls?.ca);
  const sentinelCall = adminCaller(options.sentinelPassword, tls?.ca);
  const secure = tls !== undefined;
  const folder = (port: number) => {
    const dir = join(root, String(port));
    mkdirSync(dir);
    return dir;
  };
  const data = new Map<number, RedisNodeProcess>([
    [primaryPort, redisNodeProcess(programs, primaryPort, folder(primaryPort), dataArgs(primaryPort, options.password, tls), secure)],
    [replicaPort, redisNodeProcess(programs, replicaPort, folder(replicaPort), dataArgs(replicaPort, options.password, tls, primaryPort), secure)],
  ]);
  const sentinels = sentinelPorts.map((port) => {
    const dir = folder(port);
    return redisNodeProcess(programs, port, dir, [sentinelConfig(dir, port, name, primaryPort, options, tls), '--sentinel'], secure);
  });
  const stop = async () => {
    await Promise.all([...data.values(), ...sentinels].map((p) => p.kill()));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await Promise.all([...data.values()].map((p) => p.start()));
    // Sentinels first see replicas in the primary's INFO, asked at once and then every 10 s: start them once the replica is there.
    await pollUntil(async () => ((await replicaInSync(replicaPort, dataCall)) ? true : undefined), 60_000, 'the replica to sync with the primary');
    await Promise.all(sentinels.map((p) => p.start()));
    await pollUntil(async () => ((await sentinelsAgree(sentinelCall, sentinelPorts, name)) ? true : undefined), 60_000, 'the sentinels to know the primary, its replica and each other');
  } catch (err) {
    await stop();
    throw err;
  }
  const parts = { programs, name, dataCall, sentinelCall, tls, data, sentinels, stop };
  return sentinelHandle(parts, [primaryPort, replicaPort]);
}

interface SentinelParts {
  readonly programs: RedisPrograms;
  readonly name: string;
  readonly dataCall: AdminCall;
  readonly sentinelCall: AdminCall;
  readonly tls: TestTlsFiles | undefined;
  readonly data: ReadonlyMap<number, RedisNodeProcess>;
  readonly sentinels: readonly RedisNodeProcess[];
  readonly stop: () => Promise<void>;
}

function sentinelHandle(parts: SentinelParts, dataPorts: readonly number[]): TestRedisSentinel {
  const { name, dataCall, sentinelCall, data, sentinels } = parts;
  let lastKill: { port: number; at: number } | undefined;
  const liveSentinels = () => sentinels.filter((s) => s.running).map((s) => s.port);
  const handle: TestRedisSentinel = {
    flavour: parts.programs.flavour,
    version: parts.programs.version,
    name,
    sentinels: sentinels.map(({ port }) => ({ host: LOOPBACK, port })),
    sentinelAddresses: sentinels.map(({ port }) => `${LOOPBACK}:${port}`),
    dataNodes: dataPorts.map((port) => ({ host: LOOPBACK, port })),
    adminCall: dataCall,
    sentinelCall,
    tlsCa: parts.tls?.ca,
    tlsCaFile: parts.tls?.caFile,
    primary: () => namedPrimary(sentinelCall, liveSentinels()[0]!, name),
    async killPrimary() {
      const primary = await handle.primary();
      const node = data.get(primary.port);
      if (node === undefined) throw new Error(`the sentinels name ${primary.host}:${primary.port}, not one of this set's nodes`);
      await node.kill();
      lastKill = { port: primary.port, at: performance.now() };
      return primary;
    },
    async waitForFailover(timeoutMs = 30_000) {
      const kill = lastKill;
      if (kill === undefined) throw new Error('no primary was killed by killPrimary');
      const promoted = await pollUntil(
        async () => {
          const named = await Promise.all(liveSentinels().map((port) => namedPrimary(sentinelCall, port, name)));
          const first = named[0];
          if (first === undefined || first.port === kill.port || named.some((n) => n.port !== first.port)) return undefined;
          return (await roleOf(first.port, dataCall)) === 'master' ? first : undefined;
        },
        timeoutMs,
        `the sentinels to name a new primary instead of port ${kill.port}`,
      );
      const at = performance.now();
      return { ...promoted, ms: Math.round(at - kill.at), at };
    },
    async startNode(port) {
      const node = data.get(port);
      if (node === undefined) throw new Error(`no data node on port ${port}`);
      await node.start();
    },
    async waitForReplica(port, timeoutMs = 30_000) {
      await pollUntil(async () => ((await replicaInSync(port, dataCall)) ? true : undefined), timeoutMs, `the node on port ${port} to be a replica in sync`);
    },
    stop: parts.stop,
  };
  return handle;
}
