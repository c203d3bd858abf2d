/**
 * Concurrency ceilings shared by every instance through Redis (docs/api.md#fair-shares). Each
 * counter is one sorted set of leases (member: lease id, score: expiry in Redis's own clock) under
 * its own key, `chat-adapter:{conc:<hash>}`, the hash tag making each call single-slot on a
 * Cluster. When Redis fails to answer, that chat is counted in process instead (`fallback`), so
 * chats go on during an outage with per-instance ceilings.
 *
 * What the ceilings cost a chat is socket writes and commands far more than Redis's work
 * (docs/performance.md#what-fair-shares-cost), so each is made as few times as the topology allows:
 * - One node or Sentinel: one script call per turn of the event loop (one round trip) for every
 *   chat asking for admission in it, each counted on all its counters at once, all or nothing, in
 *   the order they came; it first gives back the leases of the chats that ended since the last
 *   call. Leases given back in a turn with no admission go alone once that turn ends (setImmediate).
 *   Under load several chats arrive per turn, and a chat's share of the call's cost falls.
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
 * ended, then counts each chat of the batch, in order, on all its counters at once, all or nothing.
 * Either part may be empty. KEYS: the r counters to give leases back on, then each chat's counters
 * in the order their ceilings are checked. ARGV: r, c (chats), lease ms; then for each of the r
 * counters n and its n lease ids; then for each chat k (its counters), its lease id and the k
 * ceilings. Returns, per chat, 0 when counted, else j of its first full counter (counted on none).
 */
export const LEASES_LUA = `
local r, c, ms = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local a = 4
for i = 1, r do
  local n = tonumber(ARGV[a])
  redis.call('ZREM', KEYS[i], unpack(ARGV, a + 1, a + n))
  a = a + 1 + n
end
local out = {}
if c == 0 then return out end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local pruned, added = {}, {}
local k0 = r
for chat = 1, c do
  local k, lease = tonumber(ARGV[a]), ARGV[a + 1]
  local refused = 0
  for j = 1, k do
    local key = KEYS[k0 + j]
    if not pruned[key] then
      redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
      pruned[key] = true
    end
    if redis.call('ZCARD', key) >= tonumber(ARGV[a + 1 + j]) then
      refused = j
      break
    end
  end
  if refused == 0 then
    for j = 1, k do
      redis.call('ZADD', KEYS[k0 + j], now + ms, lease)
      added[KEYS[k0 + j]] = true
    end
  end
  out[chat] = refused
  k0 = k0 + k
  a = a + 2 + k
end
for key in pairs(added) do redis.call('PEXPIRE', key, ms + 1000) end
return out`;

/** The counter's key: the id hashed (caller data never shapes a key), its own hash tag. */
export function concurrencyKey(count: Pick<CeilingCount, 'ceiling' | 'id'>): string {
  const hash = createHash('sha256').update(`${count.ceiling}\n${count.id}`).digest('hex').slice(0, 32);
  return `chat-adapter:{conc:${hash}}`;
}

/** Keys remembered per ceiling (the clients and organisations seen lately); past it the memory starts over. */
const KEYS_REMEMBERED = 10_000;
/** Lease ids given back per call, within what one script call unpacks (Lua's stack) comfortably. */
const RELEASES_PER_CALL = 1_000;
/** Chats admitted per call: a burst goes in several calls, each short for Redis. */
const ADMISSIONS_PER_CALL = 100;

/** A lease to give back, until Redis takes it or it would have expired anyway. */
interface Release {
  readonly lease: string;
  readonly giveUpAt: number;
}
/** Counter key -> its leases to give back. */
type Releases = Map<string, Release[]>;

/** A chat waiting for the call that admits the chats of this turn of the event loop. */
interface WaitingChat {
  readonly keys: readonly string[];
  readonly counts: readonly CeilingCount[];
  readonly lease: string;
  /** The index of the counter that refused it, or -1. */
  readonly settle: (refusedBy: number) => void;
  readonly fail: (err: unknown) => void;
}

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
  /** One node or Sentinel: LEASES_LUA, the chats of a turn of the event loop and the releases waiting in one call. */
  readonly #leases: LeasesScript | undefined;
  readonly #local: LocalConcurrency;
  readonly #onFallback: ((err: Error) => void) | undefined;
  /** The same client's and organisation's key for each of their chats, hashed once. Maps: ids are caller data. */
  readonly #keys: Record<CeilingName, Map<string, string>> = { client: new Map(), organisation: new Map() };
  /** Leases given back and not sent yet: they go with the next admissions, at the latest once this turn of the event loop ends. */
  #releases: Releases = new Map();
  #releasesWaiting = 0;
  /** Chats asking for admission in this turn of the event loop (one node or Sentinel). */
  #admissions: WaitingChat[] = [];
  #sendQueued = false;

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
      refusedBy = this.#leases === undefined ? await this.#acquireEach(keys, counts, lease) : await this.#acquireInBatch(keys, counts, lease);
    } catch (err) {
      // Every key: an acquire whose reply was lost (a stall) may still have run on Redis.
      this.#release(keys, lease);
      this.#onFallback?.(err instanceof Error ? err : new Error(String(err)));
      return this.#local.acquire(counts);
    }
    if (refusedBy !== -1) return { admitted: false, ceiling: counts[refusedBy]!.ceiling };
    return { admitted: true, release: once(() => this.#release(keys, lease)) };
  }

  /** Waits for the call that admits this turn's chats; the index of the counter that refused this one, or -1. */
  #acquireInBatch(keys: readonly string[], counts: readonly CeilingCount[], lease: string): Promise<number> {
    return new Promise((settle, fail) => {
      this.#admissions.push({ keys, counts, lease, settle, fail });
      this.#queueSend();
    });
  }

  /** Once this turn of the event loop ends, what waits goes to Redis (one node or Sentinel: in as few calls as it takes). */
  #queueSend(): void {
    if (this.#sendQueued) return;
    this.#sendQueued = true;
    setImmediate(() => {
      this.#sendQueued = false;
      if (this.#leases === undefined) {
        this.#flush();
        return;
      }
      while (this.#admissions.length > 0) this.#sendAdmissions(this.#leases, this.#admissions.splice(0, ADMISSIONS_PER_CALL));
      this.#flush();
    });
  }

  /**
   * One call: the leases waiting to be given back (so that Redis sees them before these chats, as
   * if each had been sent when its chat ended), then the chats, in the order they came.
   */
  #sendAdmissions(script: LeasesScript, chats: readonly WaitingChat[]): void {
    // More than one call holds (a burst): the surplus first, on the same connection, so still before these chats.
    while (this.#releasesWaiting > RELEASES_PER_CALL) this.#send(this.#takeReleases(RELEASES_PER_CALL), 0);
    const releases = this.#takeReleases(RELEASES_PER_CALL);
    const keys: string[] = [...releases.keys()];
    const args: (string | number)[] = [releases.size, chats.length, this.#leaseMs];
    for (const leases of releases.values()) {
      args.push(leases.length);
      for (const r of leases) args.push(r.lease);
    }
    for (const chat of chats) {
      keys.push(...chat.keys);
      args.push(chat.keys.length, chat.lease);
      for (const count of chat.counts) args.push(count.max);
    }
    script(keys, args).then(
      (answer) => {
        if (!Array.isArray(answer) || answer.length !== chats.length) {
          for (const chat of chats) chat.fail(new Error(`concurrency leases: ${chats.length} answers expected`));
          return;
        }
        chats.forEach((chat, i) => chat.settle(answer[i] === 0 ? -1 : Number(answer[i]) - 1));
      },
      (err: unknown) => {
        if (releases.size > 0) this.#again(releases, 0);
        for (const chat of chats) chat.fail(err);
      },
    );
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

  /** Queues leases to give back: with the next admissions, or at the latest once this turn of the event loop ends. */
  #release(keys: readonly string[], lease: string): void {
    if (keys.length === 0) return;
    const giveUpAt = Date.now() + this.#leaseMs;
    this.#requeue(new Map(keys.map((key) => [key, [{ lease, giveUpAt }]])));
    this.#queueSend();
  }

  /** Adds leases to those waiting to be given back. */
  #requeue(releases: Releases): void {
    for (const [key, leases] of releases) {
      const waiting = this.#releases.get(key);
      if (waiting === undefined) this.#releases.set(key, [...leases]);
      else waiting.push(...leases);
      this.#releasesWaiting += leases.length;
    }
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
      const args: (string | number)[] = [keys.length, 0, this.#leaseMs];
      for (const leases of releases.values()) {
        args.push(leases.length);
        for (const r of leases) args.push(r.lease);
      }
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
