/**
 * The idempotency store in Redis (REDIS_URL): any instance replays an answer kept by another, and
 * the claim is atomic (`SET key value NX PX`), so two instances never both run the same key.
 * One key per record, `<prefix><scope>`, holding JSON:
 *   in flight  {"f": fingerprint, "t": random token}, expiring after the claim time (the request
 *              deadline plus a margin: an instance that dies mid-request never blocks the key longer);
 *   kept       {"f": fingerprint, "s": status, "b": body}, expiring after IDEMPOTENCY_TTL_S.
 * Completing and releasing compare the stored value with the holder's own claim first (a Lua
 * script), so a claim that expired and was taken over is never overwritten or deleted.
 * A kept answer must survive a failover (a retry after it is answered from it, not run again): with
 * replicas wanted (REDIS_WAIT_REPLICAS), WAIT follows the write in the same pipeline, on the same
 * connection (replica-ack.ts): one round trip, as without it.
 * Every operation throws on a Redis failure; fallback-idempotency-store.ts decides what then.
 */
import type { Redis } from 'ioredis';
import type { RedisClient } from '../shared-state/redis-connection.ts';
import { noReplicaAcks, type ReplicaAcks } from '../shared-state/replica-ack.ts';
import { ownerToken } from '../shared-state/owner-token.ts';
import { DELETE_IF_OWNED, REPLACE_IF_OWNED, redisScript } from '../shared-state/redis-script.ts';
import type { Claim, HeldClaim, IdempotencyStore, KeptAnswer, PreparedClaim } from './idempotency-store.ts';

export interface RedisIdempotencyOptions {
  readonly client: RedisClient;
  readonly ttlSeconds: number;
  /** WAIT after a kept answer is written (default: none). */
  readonly replicaAcks?: ReplicaAcks;
  readonly claimMs: number;
  /** Key namespace, so that several services can share one Redis. */
  readonly keyPrefix?: string;
}

interface Stored {
  readonly f: string;
  readonly t?: string;
  readonly s?: number;
  readonly b?: string;
}

function parse(raw: string): Stored {
  const value = JSON.parse(raw) as Partial<Stored> | null;
  if (value === null || typeof value.f !== 'string') throw new Error('idempotency record out of shape');
  return value as Stored;
}

/** What an existing record means for a request with `fingerprint`. */
function judge(raw: string, fingerprint: string): Exclude<Claim, HeldClaim> {
  const record = parse(raw);
  if (record.f !== fingerprint) return { outcome: 'mismatch' };
  if (typeof record.b === 'string' && typeof record.s === 'number') return { outcome: 'replay', answer: { status: record.s, body: record.b } };
  return { outcome: 'in_flight' };
}

export interface RedisIdempotencyStore extends IdempotencyStore {
  /** The claim of `scope` for a script that makes it together with other work (chat-begin-script.ts). */
  prepare(scope: string, fingerprint: string): PreparedClaim;
}

const COMPLETE_SCRIPT = 'idempotencyComplete';

export function createRedisIdempotencyStore(options: RedisIdempotencyOptions): RedisIdempotencyStore {
  const { client } = options;
  const prefix = options.keyPrefix ?? 'chat-adapter:idempotency:';
  const ttlMs = options.ttlSeconds * 1000;
  const acks = options.replicaAcks ?? noReplicaAcks;
  // redis-script.ts defines the command on either client class (both have defineCommand).
  const replaceIfOwned = redisScript(client as Redis, COMPLETE_SCRIPT, 1, REPLACE_IF_OWNED);
  const deleteIfOwned = redisScript(client as Redis, 'idempotencyRelease', 1, DELETE_IF_OWNED);
  /** The kept answer's write, followed in the same round trip by WAIT when replicas are wanted. */
  const keep = async (key: string, args: readonly (string | number)[]): Promise<void> => {
    if (acks.wait.replicas === 0) {
      await replaceIfOwned([key], args);
      return;
    }
    const pipeline = client.pipeline();
    (pipeline as unknown as Record<string, (...a: (string | number)[]) => unknown>)[COMPLETE_SCRIPT]!(key, ...args);
    acks.append(pipeline);
    const results = await pipeline.exec();
    const written = results?.[0];
    if (written === undefined) throw new Error('idempotency answer not written: no reply');
    if (written[0] !== null) throw written[0];
    acks.settle(results, 'idempotency');
  };

  function prepare(scope: string, fingerprint: string): PreparedClaim {
    const key = prefix + scope;
    const mine = JSON.stringify({ f: fingerprint, t: ownerToken() });
    return {
      key,
      value: mine,
      ms: options.claimMs,
      held: () => ({
        outcome: 'claimed',
        async complete(answer: KeptAnswer) {
          const kept = JSON.stringify({ f: fingerprint, s: answer.status, b: answer.body });
          await keep(key, [mine, kept, ttlMs]);
        },
        async release() {
          await deleteIfOwned([key], [mine]);
        },
      }),
      judge: (record) => judge(record, fingerprint),
    };
  }

  return {
    prepare,
    async claim(scope, fingerprint) {
      const claim = prepare(scope, fingerprint);
      // Twice at most: the other record may expire between the SET and the GET.
      for (let attempt = 0; attempt < 2; attempt += 1) {
        if ((await client.set(claim.key, claim.value, 'PX', claim.ms, 'NX')) === 'OK') return claim.held();
        const current = await client.get(claim.key);
        if (current !== null) return claim.judge(current);
      }
      throw new Error('idempotency claim did not settle');
    },
    async close() {
      // The connection belongs to the caller (shared with the session turns).
    },
  };
}
