/**
 * In-process rate-limit counters (docs/api.md#rate-limits): fixed windows, the same rule as the
 * Redis counters (src/turns/lua/includes/window.lua): a window starts with its first chat and
 * lasts `windowMs`. They count every chat without Redis, and with it the chats whose start could
 * not reach Redis, so the limits then hold per instance instead of switching off. Bounded: at most
 * LOCAL_COUNTERS windows, the least recently counted let go first (a Map in counting order).
 */
import { performance } from 'node:perf_hooks';
import type { RateWindow, WindowCount } from '../turns/rate-windows.ts';

/** In-process counters kept; more distinct keys within one window let the least recently counted go. */
export const LOCAL_COUNTERS = 20_000;

export interface WindowCounter {
  /** Counts windows narrowest first, stopping at the first that refuses (the next ones are not counted). */
  count(windows: readonly RateWindow[], windowMs: number): WindowCount[];
  /** Gives back one count of each window (its chat did not run); a window that ended meanwhile is left alone. */
  uncount(windows: readonly RateWindow[]): void;
}

interface Window {
  current: number;
  endsAt: number;
}

export function inProcessWindowCounter(maxCounters = LOCAL_COUNTERS): WindowCounter {
  const windows = new Map<string, Window>();
  const live = (key: string, now: number): Window | undefined => {
    const window = windows.get(key);
    return window !== undefined && window.endsAt > now ? window : undefined;
  };
  function countOne(key: string, windowMs: number, now: number): Window {
    let window = live(key, now);
    windows.delete(key); // re-inserted last: the Map keeps counting order
    if (window === undefined) window = { current: 0, endsAt: now + windowMs };
    window.current += 1;
    windows.set(key, window);
    if (windows.size > maxCounters) windows.delete(windows.keys().next().value!);
    return window;
  }
  return {
    count(toCount, windowMs) {
      const now = performance.now();
      const counts: WindowCount[] = [];
      for (const { key, max } of toCount) {
        const window = countOne(key, windowMs, now);
        counts.push({ max, current: window.current, ttlMs: Math.max(0, Math.ceil(window.endsAt - now)) });
        if (window.current > max) break;
      }
      return counts;
    },
    uncount(toGiveBack) {
      const now = performance.now();
      for (const { key } of toGiveBack) {
        const window = live(key, now);
        if (window !== undefined && window.current > 0) window.current -= 1;
      }
    },
  };
}
