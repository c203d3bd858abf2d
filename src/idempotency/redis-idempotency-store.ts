/**
 * The idempotency store in Redis (any topology): any instance replays an answer kept by another, and
 * the claim is atomic (`SET key value NX PX`), so two instances never both run the same key.
 * One key per record, `<prefix><scope>`, holding JSON:
 *   in flight  {"f": fingerprint, "t": random token}, expiring after the claim time (the request
 *              deadline plus a margin: an instance that dies mid-request never blocks the key longer);
 *   kept       {"f": fingerprint, "s": status, "b": body}, expiring after IDEMPOTENCY_TTL_S.
 * Completing and releasing compare the stored value with the holder's own claim first (a Lua
 * script), so a claim that expired and was taken over is never overwritten or deleted; an answer is
 * also kept where the record is gone (a failover lost the claim), so a retry is still a replay.
 * A kept answer must survive a failover (a retry after it is answered from it, not run again): with
 * replicas wanted (REDIS_WAIT_REPLICAS), WAIT follows the write in the same pipeline, on the same
 * connection (replica-ack.ts): one round trip, as without it.
 * Every operation throws on a Redis failure; fallback-idempotency-store.ts decides what then.
 */
import { readLuaFile } from '../shared-state/lua-file.ts';
import type { RedisClient } from '../shared-state/redis-connection.ts';
import { noReplicaAcks, type ReplicaAcks } from '../shared-state/replica-ack.ts';
import { ownerToken } from '../shared-state/owner-token.ts';
import { redisScript, reportedRedisCall, type ScriptReporting } from '../shared-state/redis-script.ts';
import type { Claim, HeldClaim, IdempotencyStore, KeptAnswer, PreparedClaim } from './idempotency-store.ts';

export interface RedisIdempotencyOptions {
  readonly client: RedisClient;
  readonly ttlSeconds: number;
  /** WAIT after a kept answer is written (default: none). */
  readonly replicaAcks?: ReplicaAcks;
  readonly claimMs: number;
  /** Key namespace, so that several services can share one Redis. */
  readonly keyPrefix?: string;
  /** Told of every script call (the Redis latency metric), and its span under a chat's. */
  readonly telemetry?: ScriptReporting | undefined;
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
  /** The claim of `scope`, named before it is sent (so that a claim whose reply was lost can be settled later). */
  prepare(scope: string, fingerprint: string): PreparedClaim;
  /** Makes the prepared claim (one single-key command; a second when the key is held). Throws on a Redis failure. */
  claimPrepared(claim: PreparedClaim): Promise<Claim>;
}

const LUA_DIR = new URL('./lua/', import.meta.url).pathname;
/** The store's scripts, by name (tests name what Redis saw by them). */
export const IDEMPOTENCY_SCRIPTS = { claim: readLuaFile(LUA_DIR, 'claim'), complete: readLuaFile(LUA_DIR, 'complete'), release: readLuaFile(LUA_DIR, 'release') } as const;
const COMPLETE_SCRIPT = 'idempotencyComplete';

export function createRedisIdempotencyStore(options: RedisIdempotencyOptions): RedisIdempotencyStore {
  const { client } = options;
  const prefix = options.keyPrefix ?? 'chat-adapter:idempotency:';
  const ttlMs = options.ttlSeconds * 1000;
  const acks = options.replicaAcks ?? noReplicaAcks;
  const claimKey = redisScript(client, 'idempotencyClaim', 1, IDEMPOTENCY_SCRIPTS.claim, options.telemetry);
  const replaceIfOwned = redisScript(client, COMPLETE_SCRIPT, 1, IDEMPOTENCY_SCRIPTS.complete, options.telemetry);
  const deleteIfOwned = redisScript(client, 'idempotencyRelease', 1, IDEMPOTENCY_SCRIPTS.release, options.telemetry);
  // The kept answer and its WAIT: one pipeline, timed and traced as one call of the script.
  const reported = reportedRedisCall(client, options.telemetry);
  const keepCall = { operation: 'PIPELINE', script: COMPLETE_SCRIPT, batchSize: 2 } as const;
  /** The kept answer's write, followed in the same round trip by WAIT when replicas are wanted. */
  const keep = async (key: string, args: readonly (string | number)[]): Promise<void> => {
    if (!acks.wanted('idempotency')) {
      await replaceIfOwned([key], args);
      return;
    }
    // The script defined by redisScript is a pipeline command too; the pipeline reaches the key's node.
    const pipeline = client.pipeline();
    (pipeline as unknown as Record<string, (...a: (string | number)[]) => unknown>)[COMPLETE_SCRIPT]!(key, ...args);
    acks.append(pipeline);
    const send = () => pipeline.exec();
    const results = reported === undefined ? await send() : await reported(keepCall, send, (replies) => (replies?.[0] === undefined ? new Error('no reply') : (replies[0][0] ?? undefined)));
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

  async function claimPrepared(claim: PreparedClaim): Promise<Claim> {
    const reply = await claimKey([claim.key], [claim.value, claim.ms]);
    if (Array.isArray(reply) && reply[0] === 1) return claim.held();
    if (Array.isArray(reply) && reply[0] === 0 && typeof reply[1] === 'string') return claim.judge(reply[1]);
    throw new Error('unexpected reply shape from the idempotency claim');
  }

  return {
    prepare,
    claimPrepared,
    claim: (scope, fingerprint) => claimPrepared(prepare(scope, fingerprint)),
    async close() {
      // The connection belongs to the caller (shared with the session turns).
    },
  };
}
