/**
 * The shared outbox's queue moved from the key prefix `chat-adapter` to `{chat-adapter}` (a hash
 * tag, so that it runs on a Redis Cluster). Jobs an older version queued under the old prefix are
 * not lost: while any is undelivered, a worker on the old prefix delivers them, the same way.
 * Looked for at start-up and at each dead-letter sweep, on a single node or Sentinel only: a
 * Cluster never ran the old prefix (its keys span slots, which BullMQ's scripts cannot use).
 */
import type { RedisClient } from '../shared-state/redis-connection.ts';

export const LEGACY_BULLMQ_PREFIX = 'chat-adapter';

/** BullMQ's keys that hold jobs still to deliver (a dead letter, in `failed`, is not one). */
const PENDING_LISTS = ['wait', 'active', 'delayed', 'prioritized', 'paused'] as const;

/** True when the queue under the old prefix still holds a job to deliver. */
export async function legacyJobsPending(client: RedisClient, queueName: string): Promise<boolean> {
  const keys = PENDING_LISTS.map((list) => `${LEGACY_BULLMQ_PREFIX}:${queueName}:${list}`);
  return (await client.exists(...keys)) > 0;
}
