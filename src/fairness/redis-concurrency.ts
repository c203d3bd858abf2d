/**
 * Concurrency ceilings shared by every instance through Redis (docs/api.md#fair-shares). Each
 * counter is one sorted set of leases (member: lease id, score: expiry in Redis's own clock) under
 * its own key, `chat-adapter:{conc:<hash>}`, the hash tag making each call single-slot on a
 * Cluster. When Redis fails to answer, that chat is counted in process instead (`fallback`), so
 * chats go on during an outage with per-instance ceilings.
 *
 * What the ceilings cost a chat is socket writes and commands far more than Redis's work
 * (docs/performance.md#what-fair-shares-cost), so each is made as few times as the topology allows:
 * - One node or Sentinel: one script call per chat before its admission (one round trip), which
 *   counts it on all its counters at once, all or nothing, and first gives back the leases of the
 *   chats that ended since the last call. A lease given back when no chat follows in the same turn
 *   of the event loop goes on its own once that turn ends (setImmediate), with the others of it.
 * - A Cluster, whose counters lie in different slots: one script per counter, both written before
 *   either answer is read; a chat counted on one and refused by the other gives the first lease
 *   back; leases are given back as above, one ZREM per counter, before the next chat's scripts.
 * Either way Redis sees every lease given back on this instance before any later admission.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Cluster } from 'ioredis';
import type { RedisClient } from '../shared-state/redis-connection.ts';
import { redisScript, type RedisScript } from '../shared-state/redis-script.ts';
import { once, type Admission, type CeilingCount, type CeilingName, type ConcurrencyCeilings } from './concurrency-ceilings.ts';
import { LocalConcurrency } from './local-concurrency.ts';

/**
 * One counter (a Cluster). KEYS[1]: the counter's sorted set of leases. ARGV[1]: lease id;
 * ARGV[2]: the ceiling; ARGV[3]: lease ms. Drops expired leases, then adds this one unless the
 * ceiling is reached. Returns 1 when counted, 0 when full.
 */
export const ACQUIRE_LEASE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]) + 1000)
return 1`;

/**
 * One node or Sentinel (keys of any slot in one script): gives back the leases of chats that
 * ended, then counts one chat on all its counters at once, all or nothing. Either part may be
 * empty (releases only when no chat came since). KEYS[1..r]: counters to give leases back on;
 * KEYS[r+1..]: the chat's counters, in the order their ceilings are checked. ARGV[1]: r; ARGV[2]:
 * the chat's lease id; ARGV[3]: lease ms; ARGV[3+i], i = 1..r: how many of the lease ids at the
 * end are KEYS[i]'s; ARGV[3+r+j]: the ceiling of KEYS[r+j]; then the lease ids to give back, in
 * KEYS order. Returns 0 when the chat is counted (or there was none), else j of the first full
 * counter KEYS[r+j] (the chat then counted on none).
 */
export const LEASES_LUA = `
local r = tonumber(ARGV[1])
local at = 4 + #KEYS
for i = 1, r do
  local n = tonumber(ARGV[3 + i])
  redis.call('ZREM', KEYS[i], unpack(ARGV, at, at + n - 1))
  at = at + n
end
if #KEYS == r then return 0 end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ms = tonumber(ARGV[3])
for i = r + 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
  if redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[3 + i]) then return i - r end
end
for i = r + 1, #KEYS do
  redis.call('ZADD', KEYS[i], now + ms, ARGV[2])
  redis.call('PEXPIRE', KEYS[i], ms + 1000)
end
return 0`;

/** The counter's key: the id hashed (caller data never shapes a key), its own hash tag. */
export function concurrencyKey(count: Pick<CeilingCount, 'ceiling' | 'id'>): string {
  const hash = createHash('sha256').update(`${count.ceiling}\n${count.id}`).digest('hex').slice(0, 32);
  return `chat-adapter:{conc:${hash}}`;
}

/** Keys remembered per ceiling (the clients and organisations seen lately); past it the memory starts over. */
const KEYS_REMEMBERED = 10_000;
/** Lease ids given back per call, within what one script call unpacks (Lua's stack) comfortably. */
const RELEASES_PER_CALL = 1_000;

/** A lease to give back, until Redis takes it or it would have expired anyway. */
interface Release {
  readonly lease: string;
  readonly giveUpAt: number;
}
/** Counter key -> its leases to give back. */
type Releases = Map<string, Release[]>;

type LeasesScript = (keys: readonly string[], args: readonly (string | number)[]) => Promise<unknown>;

const isCluster = (client: RedisClient): client is Cluster => typeof (client as Partial<Cluster>).nodes === 'function';

export interface RedisConcurrencyOptions {
  readonly redis: RedisClient;
  readonly leaseMs: number;
  /** A Redis call failed: this chat is counted in process. */
  readonly onFallback?: (err: Error) => void;
}

export class RedisConcurrency implements ConcurrencyCeilings {
  readonly #redis: RedisClient;
  readonly #leaseMs: number;
  /** A Cluster: one script per counter. */
  readonly #acquireOne: RedisScript | undefined;
  /** One node or Sentinel: LEASES_LUA, every counter (and the releases waiting) in one call. */
  readonly #leases: LeasesScript | undefined;
  readonly #local: LocalConcurrency;
  readonly #onFallback: ((err: Error) => void) | undefined;
  /** The same client's and organisation's key for each of their chats, hashed once. Maps: ids are caller data. */
  readonly #keys: Record<CeilingName, Map<string, string>> = { client: new Map(), organisation: new Map() };
  /** Leases given back and not sent yet: they go with the next chat's admission, or once this turn of the event loop ends. */
  #releases: Releases = new Map();
  #releasesWaiting = 0;
  #flushQueued = false;

  constructor(options: RedisConcurrencyOptions) {
    this.#redis = options.redis;
    this.#leaseMs = options.leaseMs;
    if (isCluster(options.redis)) this.#acquireOne = redisScript(options.redis, 'chatAdapterConcurrencyAcquire', 1, ACQUIRE_LEASE_LUA);
    else this.#leases = variadicScript(options.redis, 'chatAdapterConcurrencyLeases', LEASES_LUA);
    this.#local = new LocalConcurrency(options.leaseMs);
    this.#onFallback = options.onFallback;
  }

  async acquire(counts: readonly CeilingCount[]): Promise<Admission> {
    if (counts.length === 0) return { admitted: true, release: () => {} };
    const lease = randomUUID();
    const keys = counts.map((count) => this.#keyOf(count));
    let refusedBy: number;
    try {
      refusedBy = this.#leases === undefined ? await this.#acquireEach(keys, counts, lease) : await this.#acquireTogether(this.#leases, keys, counts, lease);
    } catch (err) {
      // Every key: an acquire whose reply was lost (a stall) may still have run on Redis.
      this.#release(keys, lease);
      this.#onFallback?.(err instanceof Error ? err : new Error(String(err)));
      return this.#local.acquire(counts);
    }
    if (refusedBy !== -1) return { admitted: false, ceiling: counts[refusedBy]!.ceiling };
    return { admitted: true, release: once(() => this.#release(keys, lease)) };
  }

  /**
   * One call: the leases waiting to be given back (so that Redis sees them before this chat, as
   * if each had been sent when its chat ended), then every counter of this chat. The index of the
   * counter that refused, or -1.
   */
  async #acquireTogether(script: LeasesScript, keys: readonly string[], counts: readonly CeilingCount[], lease: string): Promise<number> {
    // More than one call holds (a burst): the surplus first, on the same connection, so still before this chat.
    while (this.#releasesWaiting > RELEASES_PER_CALL) this.#send(this.#takeReleases(RELEASES_PER_CALL), 0);
    const releases = this.#takeReleases(RELEASES_PER_CALL);
    const args: (string | number)[] = [releases.size, lease, this.#leaseMs];
    const allKeys: string[] = [];
    for (const [key, leases] of releases) {
      allKeys.push(key);
      args.push(leases.length);
    }
    for (let i = 0; i < keys.length; i++) {
      allKeys.push(keys[i]!);
      args.push(counts[i]!.max);
    }
    for (const leases of releases.values()) for (const r of leases) args.push(r.lease);
    let refused: unknown;
    try {
      refused = await script(allKeys, args);
    } catch (err) {
      if (releases.size > 0) this.#again(releases, 0);
      throw err;
    }
    return refused === 0 ? -1 : Number(refused) - 1;
  }

  /** One script per counter (a Cluster), all written at once; a chat refused by one gives back the leases it got. */
  async #acquireEach(keys: readonly string[], counts: readonly CeilingCount[], lease: string): Promise<number> {
    // The leases given back before this chat reach each counter's node before it (one connection per node keeps the order).
    this.#flush();
    const answers = await Promise.allSettled(keys.map((key, i) => this.#acquireOne!([key], [lease, counts[i]!.max, this.#leaseMs])));
    const failed = answers.find((answer): answer is PromiseRejectedResult => answer.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const full = answers.findIndex((answer) => (answer as PromiseFulfilledResult<unknown>).value !== 1);
    if (full !== -1) {
      // Refused: the leases it got go back at once (rare; another instance may be asking right now).
      this.#release(keys.filter((_key, i) => (answers[i] as PromiseFulfilledResult<unknown>).value === 1), lease);
      this.#flush();
    }
    return full;
  }

  #keyOf(count: CeilingCount): string {
    const known = this.#keys[count.ceiling];
    let key = known.get(count.id);
    if (key === undefined) {
      if (known.size >= KEYS_REMEMBERED) known.clear();
      key = concurrencyKey(count);
      known.set(count.id, key);
    }
    return key;
  }

  /** Queues leases to give back: with the next chat's admission, or at the latest once this turn of the event loop ends. */
  #release(keys: readonly string[], lease: string): void {
    if (keys.length === 0) return;
    const giveUpAt = Date.now() + this.#leaseMs;
    for (const key of keys) {
      const leases = this.#releases.get(key);
      if (leases === undefined) this.#releases.set(key, [{ lease, giveUpAt }]);
      else leases.push({ lease, giveUpAt });
    }
    this.#releasesWaiting += keys.length;
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    setImmediate(() => {
      this.#flushQueued = false;
      this.#flush();
    });
  }

  /** At most `max` of the leases waiting (all of them, usually); the rest stay queued. */
  #takeReleases(max: number): Releases {
    if (this.#releasesWaiting <= max) {
      const all = this.#releases;
      this.#releases = new Map();
      this.#releasesWaiting = 0;
      return all;
    }
    const taken: Releases = new Map();
    let room = max;
    for (const [key, leases] of this.#releases) {
      if (room === 0) break;
      const part = leases.splice(0, room);
      taken.set(key, part);
      room -= part.length;
      if (leases.length === 0) this.#releases.delete(key);
    }
    this.#releasesWaiting -= max;
    return taken;
  }

  /** Sends every lease waiting to be given back. */
  #flush(): void {
    while (this.#releasesWaiting > 0) this.#send(this.#takeReleases(RELEASES_PER_CALL), 0);
  }

  /**
   * Gives leases back. Those Redis did not take (a stall, a failover in progress) are sent again,
   * backing off to a second apart, until answered or the lease would have expired: a stall must
   * not leave a client's leases counted for the whole lease time.
   */
  #send(releases: Releases, attempt: number): void {
    if (this.#leases !== undefined) {
      const keys = [...releases.keys()];
      const args: (string | number)[] = [keys.length, '', this.#leaseMs];
      for (const leases of releases.values()) args.push(leases.length);
      for (const leases of releases.values()) for (const r of leases) args.push(r.lease);
      this.#leases(keys, args).catch(() => this.#again(releases, attempt));
      return;
    }
    // A Cluster: one ZREM per counter (each in its own slot).
    for (const [key, leases] of releases) {
      this.#redis.zrem(key, ...leases.map((r) => r.lease)).catch(() => this.#again(new Map([[key, leases]]), attempt));
    }
  }

  #again(releases: Releases, attempt: number): void {
    const now = Date.now();
    const left: Releases = new Map();
    for (const [key, leases] of releases) {
      const alive = leases.filter((r) => r.giveUpAt > now);
      if (alive.length > 0) left.set(key, alive);
    }
    if (left.size === 0) return;
    setTimeout(() => this.#send(left, attempt + 1), Math.min(1_000, 50 * 2 ** attempt)).unref();
  }
}

/** A script taking any number of keys (one node or Sentinel only: on a Cluster its keys would span slots). */
function variadicScript(client: RedisClient, name: string, lua: string): LeasesScript {
  client.defineCommand(name, { lua });
  const command = (client as unknown as Record<string, (...args: (string | number)[]) => Promise<unknown>>)[name];
  if (command === undefined) throw new Error(`redis script ${name} was not defined`);
  return (keys, args) => command.call(client, keys.length, ...keys, ...args);
}
