/**
 * Rate-limit windows shared by many sessions (a client's, an organisation's) on Redis: one counter
 * key each, `<prefix>{rate:<base64url window key>}`, reached by a single-slot call of its own, so a
 * chat's counts never make a cross-slot script on Redis Cluster. The calls of one chat go out
 * together (one round trip, beside the session's start script); a chat that then does not run
 * gives its counts back.
 */
import type { Cluster, Redis } from 'ioredis';
import { readLuaFile } from '../shared-state/lua-file.ts';
import { redisScript, type ScriptReporting } from '../shared-state/redis-script.ts';
import type { RateWindow, WindowCount } from './rate-windows.ts';

/** The script of a shared window's count (tests name what Redis saw by it). */
export const COUNT_WINDOW = readLuaFile(new URL('./lua/', import.meta.url).pathname, 'count-window');

export const RATE_KEY_PREFIX = 'chat-adapter:';

export interface SharedWindows {
  /** Counts every window at once; throws when any count failed (after giving back the ones made). */
  count(windows: readonly RateWindow[], windowMs: number): Promise<WindowCount[]>;
  /** Gives the counts back (the chat did not run); never throws. */
  uncount(windows: readonly RateWindow[]): void;
}

/** The counter of a window: its key in a hash tag of its own (base64url: no brace can end the tag early). */
export const windowKey = (prefix: string, window: RateWindow): string => `${prefix}{rate:${Buffer.from(window.key).toString('base64url')}}`;

export function createSharedWindows(client: Redis | Cluster, prefix = RATE_KEY_PREFIX, telemetry?: ScriptReporting): SharedWindows {
  const script = redisScript(client, 'countWindow', 1, COUNT_WINDOW, telemetry);
  const uncountOne = (window: RateWindow) => script([windowKey(prefix, window)], [0, 1]).catch(() => {});
  return {
    async count(windows, windowMs) {
      const settled = await Promise.allSettled(windows.map((window) => script([windowKey(prefix, window)], [windowMs, 0])));
      const failed = settled.find((result) => result.status === 'rejected');
      if (failed !== undefined) {
        settled.forEach((result, i) => {
          if (result.status === 'fulfilled') void uncountOne(windows[i]!);
        });
        throw failed.reason;
      }
      return settled.map((result, i) => {
        const pair = (result as PromiseFulfilledResult<unknown>).value;
        if (!Array.isArray(pair) || typeof pair[0] !== 'number' || typeof pair[1] !== 'number') throw new Error('unexpected reply shape from the window count');
        return { max: windows[i]!.max, current: pair[0], ttlMs: pair[1] };
      });
    },
    uncount(windows) {
      for (const window of windows) void uncountOne(window);
    },
  };
}
