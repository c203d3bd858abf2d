/**
 * Which Redis the shared state lives in (docs/operations.md#redis-topologies): one node
 * (REDIS_URL), a primary watched by Sentinel (REDIS_SENTINELS + REDIS_SENTINEL_NAME) or a Redis
 * Cluster (REDIS_CLUSTER_NODES), each with a password, a user and TLS. At most one may be set.
 * Secrets are never echoed in an error: only what is wrong.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, checkUrl, envBoolean, envInteger, envOptionalString, type Env } from './env-parsers.ts';

export interface RedisNodeAddress {
  readonly host: string;
  readonly port: number;
}

/** After a write that must survive a failover, wait this long at most for this many replicas (WAIT). */
export interface RedisWait {
  /** 0 = no WAIT (a single node has no replica to wait for). */
  readonly replicas: number;
  readonly timeoutMs: number;
}

interface RedisTargetCommon {
  /** REDIS_USERNAME (ACL user); with REDIS_URL it may be in the URL instead. */
  readonly username: string | undefined;
  /** REDIS_PASSWORD; with REDIS_URL it may be in the URL instead. Never logged. */
  readonly password: string | undefined;
  /** TLS on (REDIS_TLS=true or a `rediss:` URL); `ca`: the PEM of REDIS_TLS_CA_FILE, else the system's CAs. */
  readonly tls: { readonly ca: string | undefined } | undefined;
  readonly wait: RedisWait;
}

export interface SingleRedisTarget extends RedisTargetCommon {
  readonly kind: 'single';
  /** REDIS_URL as given (it may hold credentials: never logged). */
  readonly url: string;
}

export interface SentinelRedisTarget extends RedisTargetCommon {
  readonly kind: 'sentinel';
  readonly sentinels: readonly RedisNodeAddress[];
  /** REDIS_SENTINEL_NAME: the primary's name in the Sentinels' configuration. */
  readonly name: string;
  /** REDIS_SENTINEL_PASSWORD: the Sentinels' own password (`requirepass` of sentinel.conf). Never logged. */
  readonly sentinelPassword: string | undefined;
}

export interface ClusterRedisTarget extends RedisTargetCommon {
  readonly kind: 'cluster';
  /** Seed nodes; the client learns the rest of the cluster from them. */
  readonly nodes: readonly RedisNodeAddress[];
}

export type RedisTarget = SingleRedisTarget | SentinelRedisTarget | ClusterRedisTarget;

export const DEFAULT_REDIS_WAIT_TIMEOUT_MS = 50;
/** WAIT must end before the 200 ms command timeout of the connection it is sent on. */
export const MAX_REDIS_WAIT_TIMEOUT_MS = 150;
const TOPOLOGY_VARIABLES = ['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'] as const;
const DEPENDENT_VARIABLES = [
  'REDIS_USERNAME', 'REDIS_PASSWORD', 'REDIS_TLS', 'REDIS_TLS_CA_FILE', 'REDIS_SENTINEL_NAME', 'REDIS_SENTINEL_PASSWORD',
  'REDIS_WAIT_REPLICAS', 'REDIS_WAIT_TIMEOUT_MS',
] as const;

/** A single node at `url`, with the defaults of an unset environment (tests, scripts). */
export function singleRedisTarget(url: string, wait: RedisWait = { replicas: 0, timeoutMs: DEFAULT_REDIS_WAIT_TIMEOUT_MS }): SingleRedisTarget {
  return { kind: 'single', url, username: undefined, password: undefined, tls: url.startsWith('rediss:') ? { ca: undefined } : undefined, wait };
}

/** `host:port`, `host` (default port) or `[v6 address]:port`, comma-separated. */
export function parseNodeList(variable: string, value: string, defaultPort: number): RedisNodeAddress[] {
  const entries = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length === 0) throw new ConfigError(variable, 'must list at least one host:port');
  return entries.map((entry) => {
    const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9._-]+))(?::(\d{1,5}))?$/.exec(entry);
    const port = match?.[3] === undefined ? defaultPort : Number(match[3]);
    if (match === null || port < 1 || port > 65_535) {
      throw new ConfigError(variable, `must be a comma-separated list of host:port (e.g. 10.0.0.1:6379,redis-2:6379), got "${entry}"`);
    }
    return { host: match[1] ?? match[2] ?? '', port };
  });
}

function tlsOf(env: Env, urlIsTls: boolean): RedisTargetCommon['tls'] {
  const on = envBoolean(env, 'REDIS_TLS', urlIsTls);
  if (urlIsTls && !on) throw new ConfigError('REDIS_TLS', 'is false but REDIS_URL is a rediss: URL (TLS); use redis: or drop REDIS_TLS');
  const caFile = envOptionalString(env, 'REDIS_TLS_CA_FILE');
  if (!on) {
    if (caFile !== undefined) throw new ConfigError('REDIS_TLS_CA_FILE', 'is set but TLS is off: set REDIS_TLS=true (or use a rediss: URL)');
    return undefined;
  }
  if (caFile === undefined) return { ca: undefined };
  try {
    const ca = readFileSync(caFile, 'utf8');
    if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new Error('no PEM certificate in it');
    return { ca };
  } catch (err) {
    throw new ConfigError('REDIS_TLS_CA_FILE', `cannot read a PEM certificate from ${caFile}: ${(err as Error).message}`);
  }
}

function waitOf(env: Env, replicasByDefault: number): RedisWait {
  return {
    replicas: envInteger(env, 'REDIS_WAIT_REPLICAS', replicasByDefault, 0, 16),
    // Never 0: WAIT with timeout 0 blocks until the replicas answer, however long that takes.
    timeoutMs: envInteger(env, 'REDIS_WAIT_TIMEOUT_MS', DEFAULT_REDIS_WAIT_TIMEOUT_MS, 1, MAX_REDIS_WAIT_TIMEOUT_MS),
  };
}

function singleTarget(env: Env, url: string): SingleRedisTarget {
  const parsed = new URL(checkUrl('REDIS_URL', url, ['redis:', 'rediss:']));
  const username = envOptionalString(env, 'REDIS_USERNAME');
  const password = envOptionalString(env, 'REDIS_PASSWORD');
  // ioredis lets the URL's credentials win silently: one place only, so what is set is what is used.
  if (password !== undefined && parsed.password !== '') throw new ConfigError('REDIS_PASSWORD', 'is set and REDIS_URL holds a password too: keep one');
  if (username !== undefined && parsed.username !== '') throw new ConfigError('REDIS_USERNAME', 'is set and REDIS_URL holds a user name too: keep one');
  return { kind: 'single', url, username, password, tls: tlsOf(env, parsed.protocol === 'rediss:'), wait: waitOf(env, 0) };
}

function sentinelTarget(env: Env, list: string): SentinelRedisTarget {
  const name = envOptionalString(env, 'REDIS_SENTINEL_NAME');
  if (name === undefined) throw new ConfigError('REDIS_SENTINEL_NAME', 'is required with REDIS_SENTINELS: the primary\'s name in sentinel.conf (e.g. mymaster)');
  return {
    kind: 'sentinel',
    sentinels: parseNodeList('REDIS_SENTINELS', list, 26_379),
    name,
    username: envOptionalString(env, 'REDIS_USERNAME'),
    password: envOptionalString(env, 'REDIS_PASSWORD'),
    sentinelPassword: envOptionalString(env, 'REDIS_SENTINEL_PASSWORD'),
    tls: tlsOf(env, false),
    wait: waitOf(env, 1),
  };
}

function clusterTarget(env: Env, list: string): ClusterRedisTarget {
  return {
    kind: 'cluster',
    nodes: parseNodeList('REDIS_CLUSTER_NODES', list, 6_379),
    username: envOptionalString(env, 'REDIS_USERNAME'),
    password: envOptionalString(env, 'REDIS_PASSWORD'),
    tls: tlsOf(env, false),
    wait: waitOf(env, 1),
  };
}

/** The configured Redis, or undefined (all shared state in process). Throws ConfigError naming the variable. */
export function readRedisTarget(env: Env): RedisTarget | undefined {
  const set = TOPOLOGY_VARIABLES.filter((variable) => envOptionalString(env, variable) !== undefined);
  if (set.length > 1) throw new ConfigError(set[1]!, `is set together with ${set[0]}: set only one of ${TOPOLOGY_VARIABLES.join(', ')}`);
  const url = envOptionalString(env, 'REDIS_URL');
  const sentinels = envOptionalString(env, 'REDIS_SENTINELS');
  const clusterNodes = envOptionalString(env, 'REDIS_CLUSTER_NODES');
  if (url !== undefined) return onlyWith(env, 'REDIS_SENTINELS', singleTarget(env, url));
  if (sentinels !== undefined) return sentinelTarget(env, sentinels);
  if (clusterNodes !== undefined) return onlyWith(env, 'REDIS_SENTINELS', clusterTarget(env, clusterNodes));
  const stray = DEPENDENT_VARIABLES.find((variable) => envOptionalString(env, variable) !== undefined);
  if (stray !== undefined) throw new ConfigError(stray, `has no effect without one of ${TOPOLOGY_VARIABLES.join(', ')}`);
  return undefined;
}

/** The Sentinel-only settings are refused with another topology, instead of being ignored. */
function onlyWith<T extends RedisTarget>(env: Env, topology: string, target: T): T {
  for (const variable of ['REDIS_SENTINEL_NAME', 'REDIS_SENTINEL_PASSWORD']) {
    if (envOptionalString(env, variable) !== undefined) throw new ConfigError(variable, `is used with ${topology} only`);
  }
  return target;
}

/**
 * The Redis server as the configuration names it, for spans (`server.address`, `server.port`): REDIS_URL's
 * host (never its credentials), or the first Sentinel or Cluster seed node listed. Undefined for a
 * URL that does not parse (a Unix socket path, say).
 */
export function configuredRedisServer(target: RedisTarget): RedisNodeAddress | undefined {
  if (target.kind === 'sentinel') return target.sentinels[0];
  if (target.kind === 'cluster') return target.nodes[0];
  try {
    const url = new URL(target.url);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    return host === '' ? undefined : { host, port: url.port === '' ? 6379 : Number(url.port) };
  } catch {
    return undefined;
  }
}
