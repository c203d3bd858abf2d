import type { Cluster, Redis } from 'ioredis';
import { createMemoryStreamLog } from './memory-stream-log.ts';
import { createRedisStreamLog, type RedisStreamLogEvents } from './redis-stream-log.ts';
import type { StreamLog } from './stream-log.ts';

/** The stream log of docs/api.md#resuming-a-streamed-reply: shared through Redis when Redis is configured, else in process. */
export function createStreamLog(redis: Redis | Cluster | undefined, events: RedisStreamLogEvents = {}): StreamLog {
  return redis === undefined ? createMemoryStreamLog() : createRedisStreamLog(redis, events);
}
