/**
 * In-process rate-limit counters (docs/api.md#rate-limits): fixed windows, at most LOCAL_COUNTERS
 * of them, the least recently counted let go first. They count every chat without REDIS_URL, and
 * with it the chats whose start could not reach Redis, so the limits then hold per instance instead
 * of switching off. With Redis the shared counters are counted by the start of the turn
 * (src/shared-state/chat-begin-script.ts), under the same keys and rules: the first chat of a key
 * opens its window, each chat adds one, and the window's end resets the count.
 */
import { LRUCache } from 'lru-cache';
import type { RateWindow, WindowCount } from '../turns/rate-windows.ts';

/** In-process counters kept (least recently used first out); more distinct keys in one minute let the oldest go. */
export const LOCAL_COUNTERS = 20_000;

export interface WindowCounter {
  /** Counts windows narrowest first, stopping at the first that refuses (the next ones are not counted). */
  count(windows: readonly RateWindow[], windowMs: number): WindowCount[];
  /** Gives back one count of each window (its chat did not run: its caller left while it waited). */
  uncount(windows: readonly RateWindow[]): void;
}

interface Window {
  count: number;
  /** When the window opened (epoch ms). */
  startedAt: number;
}

/** `now` is the wall clock (epoch ms); a test hands in its own. */
export function inProcessWindowCounter(now: () => number = Date.now, maxCounters = LOCAL_COUNTERS): WindowCounter {
  const counters = new LRUCache<string, Window>({ max: maxCounters });
  const count = (key: string, windowMs: number, at: number): Window => {
    const window = counters.get(key);
    if (window === undefined || window.startedAt + windowMs <= at) {
      const opened = { count: 1, startedAt: at };
      counters.set(key, opened);
      return opened;
    }
    window.count += 1;
    return window;
  };
  return {
    count(windows, windowMs) {
      const at = now();
      const counts: WindowCount[] = [];
      for (const { key, max } of windows) {
        const window = count(key, windowMs, at);
        counts.push({ max, current: window.count, ttlMs: window.startedAt + windowMs - at });
        if (window.count > max) break;
      }
      return counts;
    },
    uncount(windows) {
      for (const { key } of windows) {
        // peek: a give-back does not make a counter recently used. A window that ended meanwhile holds no count of it.
        const window = counters.peek(key);
        if (window !== undefined && window.count > 0) window.count -= 1;
      }
    },
  };
}
