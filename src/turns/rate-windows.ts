/**
 * Rate-limit windows (docs/api.md#rate-limits) as the start of a chat counts them: fixed windows,
 * narrowest first, each one counted only when the ones before it let the chat through. The HTTP
 * layer says which windows a chat counts against and answers from the counts; the turn queue
 * counts them in the same Redis script that enters the chat (or in process without Redis).
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
  readonly windows: readonly RateWindow[];
  readonly windowMs: number;
  /** Counts the same windows in process (Redis could not), with the same stop at the first refusal. */
  countLocally(): Promise<readonly WindowCount[]>;
}

/** True when the last count is over its limit (counting stops at the first refusal). */
export function isRefused(counts: readonly WindowCount[]): boolean {
  const last = counts.at(-1);
  return last !== undefined && last.current > last.max;
}
