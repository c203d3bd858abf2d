/**
 * Rate-limit windows (docs/api.md#rate-limits) as the start of a chat counts them: fixed windows,
 * narrowest first. The HTTP layer says which windows a chat counts against and answers from the
 * counts. With Redis the session's own window is counted in the script that enters the chat (one
 * hash slot), and each window shared by many sessions (a client's, an organisation's) by a
 * single-slot call of its own, sent at the same time (shared-windows.ts); a chat that does not run
 * gives its counts back. Without Redis, in process, stopping at the first refusal.
 */

export interface RateWindow {
  /** Names the counter (e.g. `session:<session>`): equal keys share one count. */
  readonly key: string;
  /** Chats allowed per window. */
  readonly max: number;
}

export interface WindowCount {
  readonly max: number;
  /** Chats counted in this window, this one included. */
  readonly current: number;
  /** Until the window ends, in ms. */
  readonly ttlMs: number;
}

export interface RateWindows {
  /** The session's own window; undefined without a session limit. */
  readonly session: RateWindow | undefined;
  /** Windows shared by many sessions (client, organisation), narrowest first. */
  readonly shared: readonly RateWindow[];
  readonly windowMs: number;
  /** Counts the same windows in process (Redis could not), with the same stop at the first refusal. */
  countLocally(): Promise<readonly WindowCount[]>;
  /** Gives back what countLocally counted (the chat did not run: its caller left while it waited). */
  uncountLocally(): void;
}

/** True when a count is over its limit. */
export function isRefused(counts: readonly WindowCount[]): boolean {
  return counts.some((count) => count.current > count.max);
}
