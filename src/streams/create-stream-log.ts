import type { Redis } from 'ioredis';
import { createMemoryStreamLog } from './memory-stream-log.ts';
import { createRedisStreamLog, type RedisStreamLogEvents } from './redis-stream-log.ts';
import type { StreamLog } from './stream-log.ts';

/** The stream log of docs/api.md#resuming-a-streamed-reply: shared through Redis when REDIS_URL is set, else in process. */
export function createStreamLog(redis: Redis | undefined, events: RedisStreamLogEvents = {}): StreamLog {
  return redis === undefined ? createMemoryStreamLog() : createRedisStreamLog(redis, events);
}
