import { SpanStatusCode, type Attributes, type SpanKind, type Tracer, type Span } from '@opentelemetry/api';

export interface SpanOptions {
  readonly kind?: SpanKind;
  readonly attributes?: Attributes;
}

/**
 * The one span helper: runs `fn` inside an active span, records an exception and error status when
 * it throws, and ends the span on every path.
 */
export async function recordSpan<T>(tracer: Tracer, name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err instanceof Error ? { name: err.name, message: err.message } : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
      throw err;
    } finally {
      span.end();
    }
  });
}
