import { SpanStatusCode, TraceFlags, context, trace, type Attributes, type Context, type Link, type SpanKind, type Tracer, type Span } from '@opentelemetry/api';
import { describeError } from '../safe-error.ts';
import { spanNow } from './span-clock.ts';
import { TimedSpan } from './timed-span.ts';
import { spanSinkOf } from '../tracing.ts';

export interface SpanOptions {
  readonly kind?: SpanKind;
  readonly attributes?: Attributes;
  /** Only for a span that starts a trace of its own (no active parent of this process), e.g. a handoff delivery. */
  readonly links?: Link[];
}

export interface NamedSpanOptions extends SpanOptions {
  readonly name: string;
}

/** Marks a span failed: an `exception` event and ERROR status, with a message only when it is safe to keep. */
export function recordError(span: Span, err: unknown): void {
  const described = describeError(err);
  span.recordException(described.reason === undefined ? { name: described.error } : { name: described.error, message: described.reason });
  span.setStatus({ code: SpanStatusCode.ERROR, message: described.reason ?? described.error });
}

/**
 * Starts a span as a child of the active one. Under a recording span of this process it is a
 * TimedSpan (timed-span.ts), the cheap path; otherwise (no parent, a remote or unsampled one, a
 * tracer not made by createTracing) the SDK decides. Timed on the span clock like the step and
 * server spans, so a child never seems to start before its parent.
 */
function startChild(tracer: Tracer, name: string, options: SpanOptions, parent: Context): Span {
  const active = trace.getSpan(parent);
  const sink = spanSinkOf(tracer);
  if (sink === undefined || active === undefined || !active.isRecording()) return tracer.startSpan(name, { ...options, startTime: spanNow() }, parent);
  const span = new TimedSpan(sink, name, active.spanContext(), spanNow(), options.kind);
  if (options.attributes !== undefined) span.setAttributes(options.attributes);
  return span;
}

/**
 * The one span helper: runs `fn` inside an active span, records an exception and error status when
 * it throws, and ends the span on every path. `describe` gives the span's name and options; it is
 * called only when a span is made (not under an unsampled parent).
 */
export async function recordSpan<T>(tracer: Tracer, describe: () => NamedSpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  const parent = context.active();
  const active = trace.getSpan(parent);
  const sink = spanSinkOf(tracer);
  // Under a parent that is not sampled, when the sampler follows the parent's decision (DISABLE_TRACING,
  // the parentbased_* samplers), a child would record nothing: the work runs under the parent, whose
  // ids it propagates (flags 00), and no span is made. Nor is one when no processor would receive it.
  if (active !== undefined && sink !== undefined && (!sink.recording || (sink.followsParent && (active.spanContext().traceFlags & TraceFlags.SAMPLED) === 0))) {
    return fn(active);
  }
  const { name, ...options } = describe();
  const span = startChild(tracer, name, options, parent);
  return context.with(trace.setSpan(parent, span), async () => {
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
