/**
 * The one place a Redis connection is opened, with the settings every user of shared state needs:
 * a command never waits for a connection that is down (no offline queue, one retry, a command
 * timeout), so a Redis outage turns into fast errors that each user degrades on (cache miss,
 * per-instance limits, local outbox), never into a hung chat.
 */
import { Redis, type RedisOptions } from 'ioredis';

export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 200;

export interface RedisConnectionOptions {
  /** Each command fails after this many ms (default 200). */
  readonly commandTimeoutMs?: number;
  /** Called once per outage (not per reconnect attempt); cleared when the connection is ready again. */
  readonly onOutage?: (err: Error) => void;
  /** Extra ioredis settings for a user with special needs (e.g. a job library's blocking client). */
  readonly overrides?: RedisOptions;
}

const answered = new WeakSet<Redis>();

/**
 * True once this connection has reached Redis (its first `ready`: connected, and Redis answered
 * the ready check). Readiness keys on it (src/http/readiness.ts): an instance that has reached
 * Redis once only degrades during an outage.
 */
export function hasAnswered(client: Redis): boolean {
  return answered.has(client);
}

export function connectRedis(url: string, options: RedisConnectionOptions = {}): Redis {
  const timeoutMs = options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS;
  const settings = {
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: Math.max(1000, timeoutMs),
    retryStrategy: (times: number) => Math.min(100 * times, 1000),
  } satisfies RedisOptions;
  const client = new Redis(url, { ...settings, ...(options.overrides ?? {}) } as typeof settings);
  let reported = false;
  client.once('ready', () => answered.add(client));
  client.on('error', (err: Error) => {
    if (reported) return;
    reported = true;
    options.onOutage?.(err);
  });
  client.on('ready', () => {
    reported = false;
  });
  return client;
}
