/**
 * Followers of a turn's parts in Redis (redis-stream-log.ts): each blocks on XREAD on a connection
 * of its own, so nothing polls while nobody resumes; at most RESUMERS_PER_TURN per turn and
 * MAX_FOLLOW_CONNECTIONS per instance. A follower whose reads time out checks the producer's lease:
 * gone without an end, it gets what was written and then an interruption.
 */
import type { Cluster, Redis } from 'ioredis';
import { RESUMERS_PER_TURN, type FollowItem, type Follower, type StreamEnd } from './stream-log.ts';
import { END_KINDS, streamKeys } from './redis-stream-keys.ts';

/** One XREAD BLOCK waits at most this long before the follower checks the producer's lease. */
const BLOCK_MS = 1_000;
const READ_COUNT = 256;
/** Followers (each with its own blocking connection) per instance, over all turns. */
export const MAX_FOLLOW_CONNECTIONS = 64;

type Entry = [id: string, fields: string[]];

/**
 * One XREAD/XRANGE entry as follow items: a batch of parts (fields: each part's SSE id, then its
 * JSON; those at or before `afterId` left out), or the end marker (field `e`).
 */
function itemsOf([, fields]: Entry, afterId: number): FollowItem[] {
  if (fields[0] === 'e') {
    const value = fields[1];
    return [value !== undefined && END_KINDS.has(value) ? { kind: 'end', end: value as StreamEnd } : { kind: 'interrupted' }];
  }
  const items: FollowItem[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const id = Number(fields[i]);
    if (Number.isSafeInteger(id) && id > afterId) items.push({ kind: 'part', id, json: fields[i + 1]! });
  }
  return items;
}

type Report = (operation: string) => (err: unknown) => void;

/** `follow(conversationId, messageId, afterId)`: undefined when the turn (or the instance) has as many followers as it may. */
/** A Cluster client, told apart without loading ioredis (it is loaded only when Redis is configured). */
const isCluster = (client: Redis | Cluster): client is Cluster => typeof (client as Partial<Cluster>).nodes === 'function';

export function redisFollowers(redis: Redis | Cluster, report: Report) {
  const followers = new Map<string, number>();
  let connections = 0;

  /** The parts after `afterId`, then the end or an interruption: blocking reads of BLOCK_MS, the lease checked between them. */
  async function* read(conn: Redis | Cluster, conversationId: string, messageId: string, afterId: number): AsyncGenerator<FollowItem> {
    const keys = streamKeys(conversationId);
    const partsKey = keys.parts(messageId);
    let last = `0-${afterId}`;
    for (;;) {
      const answer = (await conn.xread('COUNT', READ_COUNT, 'BLOCK', BLOCK_MS, 'STREAMS', partsKey, last)) as Array<[string, Entry[]]> | null;
      let entries = answer?.[0]?.[1] ?? [];
      if (entries.length === 0) {
        if ((await conn.exists(keys.live(messageId))) === 1) continue;
        // No lease: what was written before the producer died, then the interruption.
        entries = (await conn.xrange(partsKey, `(${last}`, '+', 'COUNT', READ_COUNT)) as Entry[];
        if (entries.length === 0) {
          yield { kind: 'interrupted' };
          return;
        }
      }
      for (const entry of entries) {
        last = entry[0];
        for (const item of itemsOf(entry, afterId)) {
          yield item;
          if (item.kind !== 'part') return;
        }
      }
    }
  }

  function follow(conversationId: string, messageId: string, afterId: number): Follower | undefined {
    const count = followers.get(messageId) ?? 0;
    if (count >= RESUMERS_PER_TURN || connections >= MAX_FOLLOW_CONNECTIONS) return undefined;
    followers.set(messageId, count + 1);
    connections++;
    // Its own connection: a blocking read holds it, and its timeout must outlast the block.
    const own = { commandTimeout: BLOCK_MS + 2_000, enableOfflineQueue: true, lazyConnect: false };
    // A Cluster duplicates with its own options (the parts' key tag routes XREAD to its node).
    const conn = isCluster(redis) ? redis.duplicate(undefined, { enableOfflineQueue: true, lazyConnect: false, redisOptions: { commandTimeout: own.commandTimeout } }) : redis.duplicate(own);
    conn.on('error', () => {});
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      connections--;
      const left = (followers.get(messageId) ?? 1) - 1;
      if (left === 0) followers.delete(messageId);
      else followers.set(messageId, left);
      conn.disconnect();
    };
    async function* items(): AsyncGenerator<FollowItem> {
      try {
        yield* read(conn, conversationId, messageId, afterId);
      } catch (err) {
        // The connection failed or was closed: a reader still there learns nothing more will come.
        if (!closed) {
          report('follow')(err);
          yield { kind: 'interrupted' };
        }
      } finally {
        close();
      }
    }
    const iterator = items();
    return { close, [Symbol.asyncIterator]: () => iterator };
  }
  return follow;
}
