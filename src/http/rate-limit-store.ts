/**
 * In-process rate-limit counters (docs/api.md#rate-limits): @fastify/rate-limit's own LocalStore
 * (fixed windows, least recently used counters let go first). They count every chat without
 * REDIS_URL, and with it the chats whose start could not reach Redis, so the limits then hold per
 * instance instead of switching off. With Redis the shared counters are counted by the start of the
 * turn (src/shared-state/chat-begin-script.ts), under the same keys and rules.
 */
import { createRequire } from 'node:module';
import type { RateWindow, WindowCount } from '../turns/rate-windows.ts';

interface Counted {
  readonly current: number;
  readonly ttl: number;
}
interface Counter {
  incr(key: string, callback: (err: Error | null, result: Counted) => void, timeWindow: number, max: number): void;
}

// The plugin's stores are not part of its typed surface: loaded by path, typed here.
const require = createRequire(import.meta.url);
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (continueExceeding: boolean, exponentialBackoff: boolean, cache: number) => Counter;

/** In-process counters kept (least recently used first out); more distinct keys in one minute let the oldest go. */
export const LOCAL_COUNTERS = 20_000;

/** Counts windows narrowest first, stopping at the first that refuses (the next ones are not counted). */
export type WindowCounter = (windows: readonly RateWindow[], windowMs: number) => WindowCount[];

export function inProcessWindowCounter(): WindowCounter {
  const store = new LocalStore(false, false, LOCAL_COUNTERS);
  return (windows, windowMs) => {
    const counts: WindowCount[] = [];
    for (const window of windows) {
      let count: WindowCount | undefined;
      // LocalStore answers synchronously.
      store.incr(window.key, (_err, result) => {
        count = { max: window.max, current: result.current, ttlMs: result.ttl };
      }, windowMs, window.max);
      if (count === undefined) throw new Error('the in-process rate-limit store did not answer');
      counts.push(count);
      if (count.current > count.max) break;
    }
    return counts;
  };
}
