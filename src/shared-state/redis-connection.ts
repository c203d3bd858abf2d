/**
 * The one place a Redis connection is opened, for every topology (docs/operations.md#redis-topologies):
 * a single node, a primary found through Sentinel, or a Redis Cluster, with the settings every user
 * of shared state needs. A command never waits for a connection that is down (no offline queue,
 * one retry, a command timeout), so an outage or a failover in progress turns into fast errors that
 * each user degrades on (cache miss, per-instance limits, local outbox), never into a hung chat;
 * reconnects run in the background with jittered backoff, so sharing resumes by itself once the
 * (new) primary answers.
 */
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import type { ConnectionOptions } from 'node:tls';
import { singleRedisTarget, type RedisTarget } from '../config/redis-target.ts';

/** A connection to any topology: the lead's scripts and every store take this. */
export type RedisClient = Redis | Cluster;

/** ioredis's options, without the reply mapping its constructors type more narrowly. */
type ConnectionSettings = Omit<RedisOptions, 'replyMapping'>;

export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 200;
/** Reconnect delays grow to this at most (ms), so sharing resumes within about a second of Redis answering. */
const MAX_RECONNECT_DELAY_MS = 1_000;

export interface RedisConnectionOptions {
  /** Each command fails after this many ms (default 200). */
  readonly commandTimeoutMs?: number;
  /** Called once per outage (not per reconnect attempt); cleared when the connection is ready again. */
  readonly onOutage?: (err: Error) => void;
  /**
   * Extra ioredis settings for a user with special needs (a job library's blocking client). On a
   * Cluster they apply to each node's connection, except `enableOfflineQueue` and `lazyConnect`,
   * which are the Cluster's own.
   */
  readonly overrides?: ConnectionSettings;
}

/**
 * The delay before reconnect attempt `times` (1, 2, ...): growing 100 ms a time up to 1 s, each
 * delay drawn in its upper half, so instances that lost Redis together do not come back in step.
 */
export function reconnectDelayMs(times: number, random: () => number = Math.random): number {
  const ceiling = Math.min(100 * Math.max(1, times), MAX_RECONNECT_DELAY_MS);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

const answered = new WeakSet<RedisClient>();

/**
 * True once this connection has reached Redis (its first `ready`: connected, and Redis answered
 * the ready check; for a Cluster, CLUSTER INFO said ok). Readiness keys on it
 * (src/http/readiness.ts): an instance that has reached Redis once only degrades during an outage.
 */
export function hasAnswered(client: RedisClient): boolean {
  return answered.has(client);
}

function tlsOptions(target: RedisTarget): ConnectionOptions | undefined {
  if (target.tls === undefined) return undefined;
  return target.tls.ca === undefined ? {} : { ca: target.tls.ca };
}

/** Settings of each connection to a Redis server, whatever the topology. */
function serverOptions(target: RedisTarget, timeoutMs: number): ConnectionSettings {
  const tls = tlsOptions(target);
  return {
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    connectTimeout: Math.max(1_000, timeoutMs),
    ...(target.username === undefined ? {} : { username: target.username }),
    ...(target.password === undefined ? {} : { password: target.password }),
    ...(tls === undefined ? {} : { tls }),
  };
}

function connectSingleOrSentinel(target: Exclude<RedisTarget, { kind: 'cluster' }>, timeoutMs: number, overrides: ConnectionSettings): Redis {
  const settings: ConnectionSettings = {
    ...serverOptions(target, timeoutMs),
    enableOfflineQueue: false,
    retryStrategy: (times) => reconnectDelayMs(times),
    // A primary demoted under a live connection (a Sentinel failover, a managed service's
    // maintenance) answers writes with READONLY: reconnect, which finds the new primary.
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
  };
  if (target.kind === 'single') {
    const merged: ConnectionSettings = { ...settings, ...overrides };
    return new Redis(target.url, merged);
  }
  const sentinelTls = tlsOptions(target);
  const sentinel: ConnectionSettings = {
    ...settings,
    sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
    name: target.name,
    ...(target.sentinelPassword === undefined ? {} : { sentinelPassword: target.sentinelPassword }),
    ...(sentinelTls === undefined ? {} : { enableTLSForSentinelMode: true, sentinelTLS: sentinelTls }),
    sentinelRetryStrategy: (times: number) => reconnectDelayMs(times),
    sentinelCommandTimeout: Math.max(1_000, timeoutMs),
    // Not ioredis's failoverDetector: its +switch-master handler aborts a reconnect in progress
    // (the old primary just died) with "Connection is closed." and the client ends for good. A
    // primary that is demoted alive answers READONLY, which reconnects (reconnectOnError above).
    ...overrides,
  };
  return new Redis(sentinel);
}

function connectCluster(target: Extract<RedisTarget, { kind: 'cluster' }>, timeoutMs: number, overrides: ConnectionSettings): Cluster {
  const { enableOfflineQueue, lazyConnect, ...nodeOverrides } = overrides;
  const options: Omit<ClusterOptions, 'redisOptions'> & { redisOptions: ConnectionSettings } = {
    enableOfflineQueue: enableOfflineQueue ?? false,
    lazyConnect: lazyConnect ?? false,
    enableReadyCheck: true,
    // Writes and reads go to primaries: a replica may lag behind the write a chat just made.
    scaleReads: 'master',
    redisOptions: { ...serverOptions(target, timeoutMs), ...nodeOverrides },
    clusterRetryStrategy: (times) => reconnectDelayMs(times),
    clusterNodeRetryStrategy: (times) => reconnectDelayMs(times),
    slotsRefreshTimeout: Math.max(1_000, timeoutMs),
    // A promoted replica is found within a second even when no command ran into a MOVED.
    slotsRefreshInterval: 1_000,
    // A failover in progress is an outage (fast errors, the chat degrades), not a wait: each retry
    // of a command whose node is gone waits 50 ms, at most 4 times, about the command timeout.
    retryDelayOnFailover: 50,
    retryDelayOnClusterDown: 50,
    retryDelayOnTryAgain: 50,
    maxRedirections: 4,
    // With TLS, connect by the names the cluster announces, so certificates issued for those names
    // verify (managed services announce host names: ElastiCache, Memorystore, Azure).
    ...(target.tls === undefined ? {} : { dnsLookup: (address: string, callback: (err: null, address: string) => void) => callback(null, address) }),
  };
  return new Cluster(target.nodes.map(({ host, port }) => ({ host, port })), options);
}

/** Reports an outage once, until the connection (or, on a Cluster, a node's connection) is ready again. */
function watchOutages(client: RedisClient, onOutage: ((err: Error) => void) | undefined): void {
  let reported = false;
  const report = (err: Error) => {
    if (reported) return;
    reported = true;
    onOutage?.(err);
  };
  const recovered = () => {
    reported = false;
  };
  client.once('ready', () => answered.add(client));
  client.on('error', report);
  client.on('ready', recovered);
  if (client instanceof Cluster) {
    client.on('node error', (err: Error) => report(err));
    client.on('+node', (node: Redis) => node.on('ready', recovered));
  }
}

/**
 * A connection to `target` (a string is a single node's URL). Overloads keep a single node and
 * Sentinel typed as `Redis` (the same client class); only a Cluster target gives a `Cluster`.
 */
export function connectRedis(target: string | Exclude<RedisTarget, { kind: 'cluster' }>, options?: RedisConnectionOptions): Redis;
export function connectRedis(target: string | RedisTarget, options?: RedisConnectionOptions): RedisClient;
export function connectRedis(target: string | RedisTarget, options: RedisConnectionOptions = {}): RedisClient {
  const resolved = typeof target === 'string' ? singleRedisTarget(target) : target;
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const overrides = options.overrides ?? {};
  const client = resolved.kind === 'cluster' ? connectCluster(resolved, timeoutMs, overrides) : connectSingleOrSentinel(resolved, timeoutMs, overrides);
  watchOutages(client, options.onOutage);
  return client;
}

/**
 * Whether `client` can serve now: PONG from a single node or the Sentinel-found primary; on a
 * Cluster, `cluster_state:ok` and a PONG from every primary (one PING would check one node only).
 */
export async function redisAnswers(client: RedisClient): Promise<boolean> {
  if (!(client instanceof Cluster)) return (await client.ping()) === 'PONG';
  const info = String(await client.cluster('INFO'));
  if (!/^cluster_state:ok\r?$/m.test(info)) return false;
  const primaries = client.nodes('master');
  if (primaries.length === 0) return false;
  const pongs = await Promise.all(primaries.map((node) => node.ping()));
  return pongs.every((pong) => pong === 'PONG');
}
