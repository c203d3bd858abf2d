import type { HrTime } from '@opentelemetry/api';
import { performance } from 'node:perf_hooks';

/*
 * Span times from the monotonic clock. Left to itself the OpenTelemetry SDK anchors each span on
 * Date.now() (whole milliseconds) separately, so two spans timed from the same performance.now()
 * values can land up to a millisecond apart, a child before its parent. Here every span shares one
 * anchor: the process's time origin, moved only when the wall clock has drifted from it by more
 * than a millisecond (checked at most once a second), so that spans stay on wall-clock time in a
 * process that runs for months. Times are built as [seconds, nanoseconds] with integer arithmetic:
 * a span's duration is its performance.now() difference to the nanosecond (epoch milliseconds as
 * one double would lose a quarter of a microsecond).
 */
let anchorMs = performance.timeOrigin;
let anchorSeconds = 0;
let anchorNanos = 0;
let checkedAt = -Infinity;

function setAnchor(epochMs: number): void {
  anchorMs = epochMs;
  anchorSeconds = Math.floor(epochMs / 1_000);
  anchorNanos = Math.min(999_999_999, Math.round((epochMs - anchorSeconds * 1_000) * 1e6));
}
setAnchor(anchorMs);

/** The wall-clock time of a `performance.now()` reading, as OpenTelemetry's HrTime. */
export function spanTime(monotonicMs: number): HrTime {
  if (monotonicMs - checkedAt > 1_000) {
    checkedAt = monotonicMs;
    const drift = Date.now() - (anchorMs + performance.now());
    // Date.now() is whole milliseconds: a drift within (-1, 1) is its rounding, not the clock's.
    if (drift <= -1 || drift >= 1) setAnchor(anchorMs + drift);
  }
  const seconds = Math.floor(monotonicMs / 1_000);
  let nanos = anchorNanos + Math.round((monotonicMs - seconds * 1_000) * 1e6);
  let total = anchorSeconds + seconds;
  if (nanos >= 1e9) {
    nanos -= 1e9;
    total += 1;
  }
  return [total, nanos];
}

/** Now, as a span time. */
export function spanNow(): HrTime {
  return spanTime(performance.now());
}
