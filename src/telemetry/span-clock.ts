import { performance } from 'node:perf_hooks';

/*
 * Span times from the monotonic clock. Left to itself the OpenTelemetry SDK anchors each span on
 * Date.now() (whole milliseconds) separately, so two spans timed from the same performance.now()
 * values can land up to a millisecond apart, a child before its parent. Here every span shares one
 * anchor: the process's time origin, moved only when the wall clock has drifted from it by more
 * than a millisecond (checked at most once a second), so that spans stay on wall-clock time in a
 * process that runs for months.
 */
let anchor = performance.timeOrigin;
let checkedAt = -Infinity;

/** The wall-clock time (epoch ms, sub-millisecond) of a `performance.now()` reading. */
export function spanTime(monotonicMs: number): number {
  if (monotonicMs - checkedAt > 1_000) {
    checkedAt = monotonicMs;
    const drift = Date.now() - (anchor + performance.now());
    // Date.now() is whole milliseconds: a drift within (-1, 1) is its rounding, not the clock's.
    if (drift <= -1 || drift >= 1) anchor += drift;
  }
  return anchor + monotonicMs;
}

/** Now, as a span time. */
export function spanNow(): number {
  return spanTime(performance.now());
}
