import { SpanStatusCode, type Attributes, type SpanKind, type Tracer, type Span } from '@opentelemetry/api';
import { describeError } from './safe-error.ts';
import { spanNow } from './span-clock.ts';

export interface SpanOptions {
  readonly kind?: SpanKind;
  readonly attributes?: Attributes;
}

/** Marks a span failed: an `exception` event and ERROR status, with a message only when it is safe to keep. */
export function recordError(span: Span, err: unknown): void {
  const described = describeError(err);
  span.recordException(described.reason === undefined ? { name: described.error } : { name: described.error, message: described.reason });
  span.setStatus({ code: SpanStatusCode.ERROR, message: described.reason ?? described.error });
}

/**
 * The one span helper: runs `fn` inside an active span, records an exception and error status when
 * it throws, and ends the span on every path.
 */
export async function recordSpan<T>(tracer: Tracer, name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  // Timed on the span clock, like the step and server spans, so a child never seems to start before its parent.
  return tracer.startActiveSpan(name, { ...options, startTime: spanNow() }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      recordError(span, err);
      throw err;
    } finally {
      span.end(spanNow());
    }
  });
}
