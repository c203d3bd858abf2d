/**
 * A real Redis Cluster for tests: `primaries` primaries with `replicasPerPrimary` replicas each, on
 * free loopback ports (`--cluster-enabled yes`, made one cluster by `redis-cli --cluster create`),
 * with a short node timeout so that a killed primary's replica takes over in a second or two.
 * The flavour (Redis or Valkey) is the run's (REDIS_FLAVOUR, see test/helpers/global-setup.ts), or a
 * script passes the programs it found (test/helpers/redis-binary.ts).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTestTlsFiles, tlsServerArgs, type TestTlsFiles } from './redis-tls.ts';
import {
  adminCaller,
  type AdminCall,
  freePorts,
  infoFields,
  LOOPBACK,
  pollUntil,
  programsFor,
  redisNodeProcess,
  replicaInSync,
  roleOf,
  type RedisAddress,
  type RedisFlavour,
  type RedisNodeProcess,
  type RedisPrograms,
} from './redis-node.ts';

export type { AdminCall, RedisAddress, RedisFlavour, RedisPrograms };

const run = promisify(execFile);
const SLOTS = 16_384;

export interface TestRedisClusterOptions {
  /** Default 3. */
  readonly primaries?: number;
  /** Default 1. */
  readonly replicasPerPrimary?: number;
  /** Must be the run's flavour when given (REDIS_FLAVOUR); the run's by default. */
  readonly flavour?: RedisFlavour;
  /** The programs to start, for a script outside vitest; a test run's own by default. */
  readonly programs?: RedisPrograms;
  /** `cluster-node-timeout`: how long a silent node takes to be failed over. Default 1000 ms. */
  readonly nodeTimeoutMs?: number;
  /** AOF (`appendfsync everysec`) on every node; off by default (replication is what is tested). */
  readonly appendonly?: boolean;
  /** `requirepass` (and `masterauth`) on every node; none by default. */
  readonly password?: string;
  /** TLS only, on clients, replication and the cluster bus (test/helpers/redis-tls.ts); off by default. */
  readonly tls?: boolean;
}

/** A replica that took over: its port, and ms from the kill of its primary until the cluster was whole again. */
export interface Promotion {
  readonly port: number;
  readonly ms: number;
  /** performance.now() when the promotion was seen (to compare with a test's own timings). */
  readonly at: number;
}

export interface TestRedisCluster {
  readonly flavour: RedisFlavour;
  /** The server's `--version` line. */
  readonly version: string;
  /** Every node as started (primaries first, as `--cluster create` was given them). */
  readonly nodes: readonly RedisAddress[];
  /** The same as `host:port` strings. */
  readonly addresses: readonly string[];
  /** One command to one node (with the password and TLS, if any), on a connection of its own. */
  readonly adminCall: AdminCall;
  /** With `tls`: the certificate authority's PEM text, for ioredis's `tls: { ca }` (in `redisOptions`). */
  readonly tlsCa: string | undefined;
  /** With `tls`: the same as a file, for a service process's configuration. */
  readonly tlsCaFile: string | undefined;
  /** The port of the primary that owns `key`'s hash slot now. */
  primaryForKey(key: string): Promise<number>;
  /** The ports of the primaries now (those that own slots). */
  primaryPorts(): Promise<number[]>;
  /** The ports of the replicas of `primaryPort` now. */
  replicasOf(primaryPort: number): Promise<number[]>;
  /** SIGKILL the node on `port` (its replicas are remembered for waitForPromotion). */
  killNode(port: number): Promise<void>;
  /** Starts a killed node again on its port and folder (it rejoins; a former primary as a replica). */
  startNode(port: number): Promise<void>;
  /** Until the node on `port` is a replica in sync with its primary and every live node sees it healthy; returns its primary's port. */
  waitForReplica(port: number, timeoutMs?: number): Promise<number>;
  /**
   * Until one of the killed primary's replicas answers ROLE master and every live node reports
   * cluster_state:ok with all slots served and none of them by the killed port.
   */
  waitForPromotion(oldPrimaryPort: number, timeoutMs?: number): Promise<Promotion>;
  /** SIGKILL every node and delete their folders. */
  stop(): Promise<void>;
}

function nodeArgs(port: number, busPort: number, options: TestRedisClusterOptions, tls: TestTlsFiles | undefined): string[] {
  const listen = tls === undefined ? ['--port', String(port)] : tlsServerArgs(tls, port, true);
  const persistence = options.appendonly === true ? ['--appendonly', 'yes', '--appendfsync', 'everysec'] : ['--appendonly', 'no'];
  const auth = options.password === undefined ? [] : ['--requirepass', options.password, '--masterauth', options.password];
  return [
    ...listen, '--bind', LOOPBACK, '--save', '', ...persistence, ...auth,
    '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf',
    // Given, not port + 10000: a free port above 55535 has no bus port.
    '--cluster-port', String(busPort),
    '--cluster-node-timeout', String(options.nodeTimeoutMs ?? 1000),
    // A replica always stands for election, however long ago it last heard its primary (a loaded test machine).
    '--cluster-replica-validity-factor', '0',
    // A replica's first full sync starts at once, not after the default 5 s wait for more replicas.
    '--repl-diskless-sync-delay', '0',
  ];
}

/** CLUSTER NODES as rows: port, id, flags, master id ('-' for a primary), slot ranges. */
interface NodeRow {
  readonly id: string;
  readonly port: number;
  readonly flags: readonly string[];
  readonly master: string;
  readonly slots: readonly string[];
}

async function clusterNodes(call: AdminCall, port: number): Promise<NodeRow[]> {
  const text = String(await call(port, 'CLUSTER', 'NODES'));
  return text.trim().split('\n').map((line) => {
    const [id = '', address = '', flags = '', master = '', , , , , ...slots] = line.trim().split(' ');
    return { id, port: Number(address.split('@')[0]?.split(':').at(-1)), flags: flags.split(','), master, slots };
  });
}

/** CLUSTER SLOTS as [first slot, last slot, primary port]. */
async function slotOwners(call: AdminCall, port: number): Promise<Array<[number, number, number]>> {
  const ranges = (await call(port, 'CLUSTER', 'SLOTS')) as Array<[number, number, [string, number, ...unknown[]], ...unknown[]]>;
  return ranges.map(([first, last, [, owner]]) => [Number(first), Number(last), Number(owner)]);
}

/** Every slot served, by live primaries only, as `port` sees it. */
async function coverageOk(call: AdminCall, port: number, dead: ReadonlySet<number>): Promise<boolean> {
  const info = infoFields(await call(port, 'CLUSTER', 'INFO'));
  if (info.get('cluster_state') !== 'ok' || info.get('cluster_slots_ok') !== String(SLOTS)) return false;
  const owners = await slotOwners(call, port);
  const served = owners.reduce((n, [first, last]) => n + last - first + 1, 0);
  return served === SLOTS && owners.every(([, , owner]) => !dead.has(owner));
}

/** Every node agrees: all known, none failing, the expected primaries and replicas, replicas in sync. */
async function wholeCluster(call: AdminCall, ports: readonly number[], primaries: number, replicas: number): Promise<boolean> {
  for (const port of ports) {
    if (!(await coverageOk(call, port, new Set()))) return false;
    const rows = await clusterNodes(call, port);
    if (rows.length !== ports.length) return false;
    if (rows.some((r) => r.flags.some((f) => ['handshake', 'fail', 'fail?', 'noaddr'].includes(f)))) return false;
    if (rows.filter((r) => r.flags.includes('master') && r.slots.length > 0).length !== primaries) return false;
    if (rows.filter((r) => r.flags.includes('slave') && r.master !== '-').length !== replicas) return false;
  }
  const replicaPorts = (await clusterNodes(call, ports[0]!)).filter((r) => r.flags.includes('slave')).map((r) => r.port);
  for (const port of replicaPorts) if (!(await replicaInSync(port, call))) return false;
  return true;
}

async function createCluster(programs: RedisPrograms, ports: readonly number[], replicasPerPrimary: number, options: TestRedisClusterOptions, tls: TestTlsFiles | undefined): Promise<void> {
  const auth = options.password === undefined ? [] : ['-a', options.password, '--no-auth-warning'];
  const secure = tls === undefined ? [] : ['--tls', '--cacert', tls.caFile];
  const args = [...auth, ...secure, '--cluster', 'create', ...ports.map((p) => `${LOOPBACK}:${p}`), '--cluster-replicas', String(replicasPerPrimary), '--cluster-yes'];
  try {
    await run(programs.cli, args, { env: { ...process.env, ...programs.env }, timeout: 60_000 });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${programs.cli} --cluster create failed: ${(e.stderr || e.stdout || e.message).trim().split('\n').slice(-3).join(' | ')}`);
  }
}

export async function startTestRedisCluster(options: TestRedisClusterOptions = {}): Promise<TestRedisCluster> {
  const primaries = options.primaries ?? 3;
  const replicasPerPrimary = options.replicasPerPrimary ?? 1;
  const programs = await programsFor(options.programs, options.flavour);
  const total = primaries * (1 + replicasPerPrimary);
  const allPorts = await freePorts(total * 2);
  const ports = allPorts.slice(0, total);
  const root = mkdtempSync(join(tmpdir(), `chat-adapter-${programs.flavour}-cluster-`));
  const tls = options.tls === true ? await makeTestTlsFiles(root) : undefined;
  const call = adminCaller(options.password, tls?.ca);
  const processes = new Map<number, RedisNodeProcess>();
  for (const [i, port] of ports.entries()) {
    const dir = join(root, String(port));
    mkdirSync(dir);
    const args = nodeArgs(port, allPorts[total + i]!, options, tls);
    processes.set(port, redisNodeProcess(programs, port, dir, args, tls !== undefined));
  }
  const stop = async () => {
    await Promise.all([...processes.values()].map((p) => p.kill()));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    await Promise.all([...processes.values()].map((p) => p.start()));
    await createCluster(programs, ports, replicasPerPrimary, options, tls);
    await pollUntil(async () => ((await wholeCluster(call, ports, primaries, primaries * replicasPerPrimary)) ? true : undefined), 60_000, 'the new cluster to be whole');
  } catch (err) {
    await stop();
    throw err;
  }
  return clusterHandle(programs, call, tls, ports, processes, stop);
}

function clusterHandle(programs: RedisPrograms, call: AdminCall, tls: TestTlsFiles | undefined, ports: readonly number[], processes: ReadonlyMap<number, RedisNodeProcess>, stop: () => Promise<void>): TestRedisCluster {
  const killed = new Map<number, { at: number; replicas: readonly number[] }>();
  const live = () => ports.filter((p) => processes.get(p)!.running);
  const anyLive = () => {
    const port = live()[0];
    if (port === undefined) throw new Error('no cluster node is running');
    return port;
  };
  const handle: TestRedisCluster = {
    flavour: programs.flavour,
    version: programs.version,
    nodes: ports.map((port) => ({ host: LOOPBACK, port })),
    addresses: ports.map((port) => `${LOOPBACK}:${port}`),
    adminCall: call,
    tlsCa: tls?.ca,
    tlsCaFile: tls?.caFile,
    async primaryForKey(key) {
      const slot = Number(await call(anyLive(), 'CLUSTER', 'KEYSLOT', key));
      const owner = (await slotOwners(call, anyLive())).find(([first, last]) => first <= slot && slot <= last);
      if (owner === undefined) throw new Error(`no primary serves slot ${slot} now`);
      return owner[2];
    },
    async primaryPorts() {
      return [...new Set((await slotOwners(call, anyLive())).map(([, , owner]) => owner))].sort((a, b) => a - b);
    },
    async replicasOf(primaryPort) {
      const rows = await clusterNodes(call, anyLive());
      const primary = rows.find((r) => r.port === primaryPort);
      if (primary === undefined) throw new Error(`no cluster node on port ${primaryPort}`);
      return rows.filter((r) => r.master === primary.id && !r.flags.includes('fail')).map((r) => r.port);
    },
    async killNode(port) {
      const node = processes.get(port);
      if (node === undefined) throw new Error(`no cluster node on port ${port}`);
      const replicas = await handle.replicasOf(port);
      await node.kill();
      killed.set(port, { at: performance.now(), replicas });
    },
    async startNode(port) {
      const node = processes.get(port);
      if (node === undefined) throw new Error(`no cluster node on port ${port}`);
      await node.start();
      killed.delete(port);
    },
    async waitForReplica(port, timeoutMs = 30_000) {
      return pollUntil(
        async () => {
          if (!(await replicaInSync(port, call))) return undefined;
          const views = await Promise.all(live().map((p) => clusterNodes(call, p)));
          const rows = views.map((rows) => rows.find((r) => r.port === port));
          if (rows.some((r) => r === undefined || !r.flags.includes('slave') || r.flags.some((f) => f.startsWith('fail')))) return undefined;
          const primary = views[0]!.find((r) => r.id === rows[0]!.master);
          return primary?.port;
        },
        timeoutMs,
        `the node on port ${port} to be a replica in sync`,
      );
    },
    async waitForPromotion(oldPrimaryPort, timeoutMs = 30_000) {
      const kill = killed.get(oldPrimaryPort);
      if (kill === undefined) throw new Error(`the node on port ${oldPrimaryPort} was not killed by killNode`);
      if (kill.replicas.length === 0) throw new Error(`the node on port ${oldPrimaryPort} had no replica to promote`);
      const dead = new Set(killed.keys());
      const port = await pollUntil(
        async () => {
          const promoted = await firstPrimary(call, kill.replicas.filter((p) => processes.get(p)!.running));
          if (promoted === undefined) return undefined;
          for (const p of live()) if (!(await coverageOk(call, p, dead))) return undefined;
          return promoted;
        },
        timeoutMs,
        `a replica of ${oldPrimaryPort} to be promoted and the cluster whole again`,
      );
      const at = performance.now();
      return { port, ms: Math.round(at - kill.at), at };
    },
    stop,
  };
  return handle;
}

async function firstPrimary(call: AdminCall, ports: readonly number[]): Promise<number | undefined> {
  for (const port of ports) if ((await roleOf(port, call)) === 'master') return port;
  return undefined;
}
