/**
 * Replication in Redis is asynchronous: a primary that fails right after answering a write may
 * take it with it, and the replica promoted in its place never had it. For the writes a failover
 * must not lose (a kept Idempotency-Key answer, a queued handoff), a replica acknowledges the write
 * first: `WAIT <replicas> <timeout>` on the same connection right after it (WAIT counts the writes
 * this connection made). On a Cluster the WAIT goes in a pipeline led by a command on the written
 * key, so it reaches the node that owns the key's slot, the one that took the write.
 *
 * WAIT is bounded (REDIS_WAIT_TIMEOUT_MS): when fewer replicas answered in time, the chat still
 * answers; the write is counted (`chat_adapter_redis_unreplicated_writes_total{kind}`) and logged
 * at most once a minute. What a failover can lose then: docs/operations.md#what-a-failover-costs.
 */
import type { ChainableCommander } from 'ioredis';
import type { RedisWait } from '../config/redis-target.ts';
import type { RedisClient } from './redis-connection.ts';

/** Which durable write a replica did not acknowledge in time (a metric label: a fixed set). */
export type ReplicatedWriteKind = 'idempotency' | 'handoff' | 'turn';

export interface ReplicaAckEvents {
  /** One write that fewer than the wanted replicas acknowledged (or whose WAIT failed). */
  unreplicated(kind: ReplicatedWriteKind): void;
  /** At most once per `logEveryMs`: how many writes were unreplicated since the last call. */
  warn(kind: ReplicatedWriteKind, count: number, reason: string): void;
}

export interface ReplicaAcks {
  readonly wait: RedisWait;
  /**
   * Whether the next durable write is to be followed by WAIT: false when no replica is wanted, or
   * for a while after a WAIT came back short (the write is then counted as unreplicated).
   */
  wanted(kind: ReplicatedWriteKind): boolean;
  /** Appends WAIT to a pipeline that holds the write (and so reaches its node); false when no replica is wanted. */
  append(pipeline: ChainableCommander): boolean;
  /** Reads WAIT's answer, the last entry of the pipeline's results, counting a short one. */
  settle(results: ReadonlyArray<[Error | null, unknown]> | null, kind: ReplicatedWriteKind): void;
  /** WAIT of its own, after a write already made on `client` for `key`. Never throws. */
  confirm(client: RedisClient, key: string, kind: ReplicatedWriteKind): Promise<void>;
}

export const REPLICA_ACK_LOG_EVERY_MS = 60_000;
/**
 * After a WAIT that fewer replicas answered, no WAIT is sent for this long (the writes are counted
 * as unreplicated meanwhile): WAIT holds the connection it is sent on, so a primary left without its
 * replica (right after a failover) would otherwise delay every command behind each durable write
 * by the WAIT timeout. One WAIT per interval finds out when the replica is back.
 */
export const SKIP_WAIT_AFTER_SHORT_MS = 5_000;

/**
 * `skipAfterShort` (true for one primary: a single node or Sentinel): after a short WAIT, none is
 * sent for SKIP_WAIT_AFTER_SHORT_MS. A Cluster has a primary per slot range, and a short WAIT says
 * nothing of the others, so there every write keeps its WAIT (each node's connection is its own).
 */
export function createReplicaAcks(wait: RedisWait, events: ReplicaAckEvents, now: () => number = Date.now, skipAfterShort = true): ReplicaAcks {
  let loggedAt = -Infinity;
  let unlogged = 0;
  let skipUntil = -Infinity;
  const count = (kind: ReplicatedWriteKind, reason: string) => {
    events.unreplicated(kind);
    unlogged += 1;
    if (now() - loggedAt < REPLICA_ACK_LOG_EVERY_MS) return;
    loggedAt = now();
    events.warn(kind, unlogged, reason);
    unlogged = 0;
  };
  const short = (kind: ReplicatedWriteKind, reason: string) => {
    if (skipAfterShort) skipUntil = now() + SKIP_WAIT_AFTER_SHORT_MS;
    count(kind, reason);
  };
  const wanted = (kind: ReplicatedWriteKind): boolean => {
    if (wait.replicas === 0) return false;
    if (now() >= skipUntil) return true;
    count(kind, 'not waited for: a recent WAIT found too few replicas');
    return false;
  };
  const check = (entry: [Error | null, unknown] | undefined, kind: ReplicatedWriteKind) => {
    if (entry === undefined) return short(kind, 'no answer to WAIT');
    const [err, acked] = entry;
    if (err !== null) return short(kind, `WAIT failed: ${err.message}`);
    if (typeof acked !== 'number' || acked < wait.replicas) {
      short(kind, `${String(acked)} of ${wait.replicas} replicas acknowledged within ${wait.timeoutMs} ms`);
    }
  };
  return {
    wait,
    wanted,
    append(pipeline) {
      if (wait.replicas === 0) return false;
      pipeline.wait(wait.replicas, wait.timeoutMs);
      return true;
    },
    settle(results, kind) {
      if (wait.replicas === 0) return;
      check(results?.at(-1), kind);
    },
    async confirm(client, key, kind) {
      if (!wanted(kind)) return;
      try {
        // EXISTS only routes the pipeline to the key's node (on a Cluster); it writes nothing.
        const results = await client.pipeline().exists(key).wait(wait.replicas, wait.timeoutMs).exec();
        check(results?.at(-1), kind);
      } catch (err) {
        short(kind, `WAIT failed: ${(err as Error).message}`);
      }
    },
  };
}

/** No replica wanted: nothing is sent (a single node, or REDIS_WAIT_REPLICAS=0). */
export const noReplicaAcks: ReplicaAcks = createReplicaAcks({ replicas: 0, timeoutMs: 1 }, { unreplicated() {}, warn() {} });
