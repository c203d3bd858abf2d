/**
 * Picks and wires the handoff outbox from configuration (docs/operations.md#handoffs-and-dead-letters): the local SQLite outbox
 * under DATA_DIR always; with a Redis configured (any topology), the shared BullMQ outbox in front of it (BullMQ and ioredis
 * are loaded only then: several MiB an instance without Redis does not carry).
 */
import { join } from 'node:path';
import type { BackoffPolicy } from '../clients/backoff.ts';
import { deliverHandoff } from '../clients/handoff-client.ts';
import { createHandoffSigner } from '../clients/handoff-signature.ts';
import type { HttpParty } from '../clients/http-json.ts';
import type { RedisTarget } from '../config/redis-target.ts';
import type { Logger } from '../pipeline/ports.ts';
import type { ReplicaAcks } from '../shared-state/replica-ack.ts';
import { DEFAULT_HANDOFF_BACKOFF, type RetryPolicy } from './delivery-policy.ts';
import { createFallbackOutbox } from './fallback-outbox.ts';
import type { Deliver, Outbox, OutboxEvents } from './outbox.ts';
import { LOCAL_OUTBOX_FILE, createSqliteOutbox } from './sqlite-outbox.ts';

/** Settings no operator needs, which tests shorten (the defaults are those of docs/operations.md#handoffs-and-dead-letters). */
export interface OutboxTuning {
  readonly backoff?: BackoffPolicy;
  readonly pollIntervalMs?: number;
  /** The BullMQ queue's name (tests give each service its own). */
  readonly queueName?: string;
  /** The clock of the signatures' timestamps (tests move it to show each attempt is signed afresh). */
  readonly signingClock?: () => number;
}

export interface HandoffOutboxConfig {
  /** DATA_DIR: the local outbox's file lives here. */
  readonly dataDir: string;
  /** The configured Redis (a string: one node's URL); undefined: the local outbox alone. */
  readonly redis: RedisTarget | string | undefined;
  /** WAIT for replicas after each shared job is written (REDIS_WAIT_REPLICAS). */
  readonly replicaAcks?: ReplicaAcks;
  /** HANDOFF_MAX_AGE_S. */
  readonly maxAgeSeconds: number;
  /** HANDOFF_DEAD_LETTER_TTL_S: dead letters (local and shared) are deleted this long after they died. */
  readonly deadLetterTtlSeconds?: number;
  /** HANDOFF_LOCK_MS: how long a delivering instance holds a handoff. */
  readonly lockMs: number;
  /** The handoff receiver (HANDOFF_URL, HANDOFF_TIMEOUT_MS, its connection pool). */
  readonly receiver: HttpParty;
  /** HANDOFF_SIGNING_SECRET (docs/handoff-receivers.md): `whsec_` secrets, the newest first; empty or absent: deliveries are not signed. */
  readonly signingSecrets?: readonly string[];
  /** HANDOFF_LEGACY_SIGNATURE: also send the former `X-Chat-Adapter-Signature` header. */
  readonly legacySignature?: boolean;
  readonly logger: Logger;
  readonly events?: OutboxEvents;
  readonly tuning?: OutboxTuning;
}

export async function createHandoffOutbox(config: HandoffOutboxConfig): Promise<Outbox> {
  const { logger, tuning = {} } = config;
  // Both outboxes deliver through this one function: every attempt of either is signed the same way.
  const signing = { signer: createHandoffSigner(config.signingSecrets ?? [], { legacy: config.legacySignature ?? false }), now: tuning.signingClock ?? Date.now };
  const deliver: Deliver = (handoff, trace) => deliverHandoff(config.receiver, handoff, trace, signing);
  const policy: RetryPolicy = { backoff: tuning.backoff ?? DEFAULT_HANDOFF_BACKOFF, maxAgeMs: config.maxAgeSeconds * 1000 };
  const events = config.events === undefined ? {} : { events: config.events };
  const local = createSqliteOutbox({
    file: join(config.dataDir, LOCAL_OUTBOX_FILE),
    deliver,
    policy,
    logger,
    ...events,
    // An attempt ends within the receiver's timeout, so a claim never lapses under a live attempt.
    claimMs: Math.max(config.lockMs, config.receiver.timeoutMs + 1_000),
    ...(config.deadLetterTtlSeconds === undefined ? {} : { deadLetterTtlMs: config.deadLetterTtlSeconds * 1000 }),
    ...(tuning.pollIntervalMs === undefined ? {} : { pollIntervalMs: tuning.pollIntervalMs }),
  });
  if (config.redis === undefined) return local;
  const { createBullmqOutbox } = await import('./bullmq-outbox.ts');
  const shared = createBullmqOutbox({
    redis: config.redis,
    ...(config.replicaAcks === undefined ? {} : { replicaAcks: config.replicaAcks }),
    deliver,
    policy,
    logger,
    ...events,
    lockMs: config.lockMs,
    ...(config.deadLetterTtlSeconds === undefined ? {} : { deadLetterTtlSeconds: config.deadLetterTtlSeconds }),
    ...(tuning.queueName === undefined ? {} : { queueName: tuning.queueName }),
  });
  return createFallbackOutbox(shared, local, logger);
}
