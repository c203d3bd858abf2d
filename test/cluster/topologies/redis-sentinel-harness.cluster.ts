/**
 * The Sentinel test harness (test/helpers/redis-sentinel.ts) does what the topology tests rely on,
 * with ioredis's own Sentinel client: three sentinels watch a primary and its replica, a write the
 * replica acknowledged (WAIT) outlives the primary's SIGKILL, and the client follows the sentinels
 * to the promoted replica; with passwords on the data nodes and the sentinels, then with TLS too.
 * Run with REDIS_FLAVOUR=valkey for Valkey.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleOf } from '../../helpers/redis-node.ts';
import { redisPrograms } from '../../helpers/redis-programs.ts';
import { startTestRedisSentinel, type TestRedisSentinel } from '../../helpers/redis-sentinel.ts';
import { record } from '../figures.ts';

const PASSWORD = 'harness data password';
const SENTINEL_PASSWORD = 'harness sentinel password';
const keys = Array.from({ length: 50 }, (_, i) => `harness:{session-${i}}:turns`);
const valueOf = (key: string) => `value of ${key}`;

/** ioredis's Sentinel settings for `set` (TLS to the sentinels and the primary when the set has it). */
function sentinelClientOptions(set: TestRedisSentinel) {
  const tls = set.tlsCa === undefined ? {} : { tls: { ca: set.tlsCa }, sentinelTLS: { ca: set.tlsCa }, enableTLSForSentinelMode: true };
  const options = { sentinels: [...set.sentinels], name: set.name, password: PASSWORD, sentinelPassword: SENTINEL_PASSWORD, connectTimeout: 1000, maxRetriesPerRequest: 50, retryStrategy: () => 100 };
  return { ...options, ...tls } satisfies RedisOptions;
}

describe.each([
  { variant: 'with passwords', tls: false },
  { variant: 'with passwords and TLS', tls: true },
])(`a ${redisPrograms().flavour} primary and replica behind three sentinels, $variant`, ({ variant, tls }) => {
  let set: TestRedisSentinel;
  let client: Redis;
  /** What the client reported while the primary was gone (refused connections): counted, not printed. */
  let clientErrors = 0;
  beforeAll(async () => {
    set = await startTestRedisSentinel({ password: PASSWORD, sentinelPassword: SENTINEL_PASSWORD, tls });
    client = new Redis(sentinelClientOptions(set));
    client.on('error', () => {
      clientErrors += 1;
    });
  }, 120_000);
  afterAll(async () => {
    client?.disconnect();
    await set?.stop();
  }, 60_000);

  it('the client reaches the primary the sentinels name', async () => {
    const [first, replica] = set.dataNodes;
    expect(await set.primary()).toEqual(first);
    await client.set('harness:probe', 'written through the sentinels');
    expect(await set.adminCall(first!.port, 'GET', 'harness:probe')).toBe('written through the sentinels');
    expect(await roleOf(replica!.port, set.adminCall)).toBe('slave');
  });

  it('after the primary is killed, the promoted replica serves every acknowledged write', async ({ task }) => {
    await Promise.all(keys.map((k) => client.set(k, valueOf(k))));
    // WAIT on the connection that wrote: the replica has every write before the kill.
    expect(await client.call('WAIT', 1, 1000)).toBe(1);

    const killed = await set.killPrimary();
    const failover = await set.waitForFailover();

    expect(failover.port).not.toBe(killed.port);
    expect(failover.port).toBe(set.dataNodes[1]!.port);
    expect(await Promise.all(keys.map((k) => client.get(k)))).toEqual(keys.map(valueOf));
    await client.set(keys[0]!, 'after the failover');
    expect(await set.adminCall(failover.port, 'GET', keys[0]!)).toBe('after the failover');

    record(task, `${set.flavour} sentinel, ${variant}`, {
      server: set.version.split(' sha=')[0]!,
      'sentinels name the replica after SIGKILL of the primary': `${failover.ms} ms (down-after-milliseconds 1000)`,
      'connection errors the client saw meanwhile': clientErrors,
    });
  });

  // Once is enough (the sentinels take up to 10 s to look at a returning node): not registered for TLS.
  if (tls) return;
  it('the killed primary, started again, is made a replica of the new one', async () => {
    const [old, promoted] = set.dataNodes;
    await set.startNode(old!.port);
    // The sentinels notice a node that came back at their next look (every 10 s), later on a loaded machine.
    await set.waitForReplica(old!.port, 75_000);
    expect(await roleOf(old!.port, set.adminCall)).toBe('slave');
    expect(await set.primary()).toEqual(promoted);
    expect(await set.adminCall(old!.port, 'GET', keys[1]!)).toBe(valueOf(keys[1]!));
  }, 90_000);
});
