/**
 * A cluster on this machine: one real redis-server (AOF, noeviction, as docs/operations.md#redis advises), the
 * stub parties, three real service processes (`node dist/src/server.js`, ENVIRONMENT=qa, each its own
 * DATA_DIR) and the round-robin proxy in front. Chats go through the proxy with a caller key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CALLER_API_KEY, chatRequest, newSessionId } from '../helpers/fixtures.ts';
import { startTestRedis, type TestRedis } from '../helpers/redis-server.ts';
import { SERVED_BY, startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.ts';
import { readyStatus, startInstance, type Instance } from './service-instance.ts';
import { startStubParties, type StubParties } from './stub-parties.ts';

export const INSTANCES = 3;
export const SESSION_LIMIT_PER_MIN = 8;
export const ADMIN_KEY = 'cluster-admin-key-0123456789';

/** What every instance gets (its PORT and DATA_DIR are its own); `backendEnv` names the Redis topology and may override the rest. */
const baseEnv = (backendEnv: Record<string, string>, parties: StubParties): Record<string, string> => ({
  ENVIRONMENT: 'qa',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  ...parties.env,
  GRAPHQL_AUTHORIZATION: 'Bearer cluster-graphql-secret',
  GRAPHQL_API_KEY: 'cluster-graphql-key',
  CALLER_API_KEYS: `cluster:${CALLER_API_KEY}`,
  ADMIN_API_KEY: ADMIN_KEY,
  RATE_LIMIT_SESSION_PER_MIN: String(SESSION_LIMIT_PER_MIN),
  HANDOFF_TIMEOUT_MS: '1000',
  HANDOFF_LOCK_MS: '3000',
  // Longer than the slowest chat the scenarios keep in flight at a SIGTERM (engine 2 s).
  SHUTDOWN_GRACE_MS: '5000',
  // Off: on the loaded 2-core test machine any of the three loops may lag a second (tested elsewhere).
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  ...backendEnv,
});

export interface ChatAnswer {
  readonly status: number;
  readonly servedBy: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: Record<string, unknown>;
  /** Round trip through the proxy, ms. */
  readonly ms: number;
}

/** The service processes and what stands around them, on any Redis topology. */
export interface ServiceCluster {
  readonly parties: StubParties;
  readonly proxy: RoundRobinProxy;
  /** The instance in each slot (a replaced one is the new process). */
  readonly instances: Instance[];
  /** POST /chat_adapter through the proxy (or straight to `via`), with the caller key. */
  chat(overrides: Record<string, unknown>, headers?: Record<string, string>, via?: Instance): Promise<ChatAnswer>;
  /** Starts a new process in `slot` on the same DATA_DIR (a restarted pod keeps its volume). */
  replace(slot: number): Promise<Instance>;
  /** Until every live instance answers GET /ready with 200. */
  allReady(ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** On one redis-server (test/helpers/redis-server.ts), which tests may stop and start. */
export interface Cluster extends ServiceCluster {
  readonly redis: TestRedis;
}

/** A Redis topology the instances are pointed at: its variables (and any other setting to override), and how to stop it. */
export interface RedisBackend {
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/** Polls `probe` until it returns a value other than undefined; throws after `ms`. */
export async function until<T>(probe: () => T | undefined | Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(25);
  }
}

export async function startCluster(): Promise<Cluster> {
  const root = mkdtempSync(join(tmpdir(), 'chat-adapter-cluster-'));
  const redis = await startTestRedis({ persistDir: root });
  const services = await startServices(root, { env: { REDIS_URL: redis.url }, close: () => redis.stop() });
  return { ...services, redis };
}

/** Three instances on the Redis topology `backend` (a Cluster, a Sentinel set); `close` stops it too. */
export async function startClusterOn(backend: RedisBackend): Promise<ServiceCluster> {
  return startServices(mkdtempSync(join(tmpdir(), 'chat-adapter-cluster-')), backend);
}

async function startServices(root: string, backend: RedisBackend): Promise<ServiceCluster> {
  const parties = await startStubParties();
  const env = baseEnv(backend.env, parties);
  const dirs = Array.from({ length: INSTANCES }, (_, slot) => mkdtempSync(join(root, `instance-${slot}-`)));
  const started = await Promise.allSettled(dirs.map((dir, slot) => startInstance(slot, dir, env)));
  const instances = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(instances.map((i) => i.stop('SIGKILL')));
    await Promise.all([parties.close(), backend.close()]);
    throw failed.reason;
  }
  const proxy = await startRoundRobinProxy(() => instances.map((i) => i.url));

  const cluster: ServiceCluster = {
    parties,
    proxy,
    instances,
    async chat(overrides, headers = {}, via) {
      const started = performance.now();
      const res = await fetch(`${via?.url ?? proxy.url}/chat_adapter`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${CALLER_API_KEY}`, ...headers },
        body: JSON.stringify(chatRequest(overrides)),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await res.text();
      const servedBy = via?.slot ?? Number(res.headers.get(SERVED_BY));
      return { status: res.status, servedBy, headers: res.headers, text, body: JSON.parse(text) as Record<string, unknown>, ms: performance.now() - started };
    },
    async replace(slot) {
      instances[slot] = await startInstance(slot, dirs[slot]!, env);
      return instances[slot];
    },
    async allReady(ms = 60_000) {
      const live = instances.filter((i) => i.process.child.exitCode === null && i.process.child.signalCode === null);
      await until(async () => ((await Promise.all(live.map((i) => readyStatus(i.url)))).every((s) => s === 200) ? true : undefined), ms, 'every instance ready');
    },
    async close() {
      // SIGTERM, as an orchestrator stops a pod; SIGKILL whatever has not exited 20 s later.
      await Promise.all(
        instances.map(async (i) => {
          const killLater = setTimeout(() => i.process.child.kill('SIGKILL'), 20_000);
          await i.stop('SIGTERM');
          clearTimeout(killLater);
        }),
      );
      await proxy.close();
      await parties.close();
      await backend.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
  await cluster.allReady();
  return cluster;
}

/**
 * A cluster whose instances have each answered a few chats (`sessions` new sessions at once), so
 * that their first chats (compilation, first connections to the parties) are not what is measured.
 */
export async function startWarmCluster(sessions: number): Promise<Cluster> {
  const cluster = await startCluster();
  await Promise.all(Array.from({ length: sessions }, (_, i) => cluster.chat({ session_id: newSessionId(), message: `Warm-up ${i}: is there a gym?` })));
  return cluster;
}
