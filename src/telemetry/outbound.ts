import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * Adds the W3C `traceparent` (and `tracestate`) of the active context to outbound headers: what
 * the W3C trace context propagator writes (installed by tracing.ts, the only propagator this
 * service uses), written directly. Every call to a party makes one, and the propagator's generic
 * path (a setter, a suppression check, a header object per call) costs several times as much.
 */
export function withTraceHeaders(headers: Record<string, string>): Record<string, string> {
  const ids = trace.getSpan(context.active())?.spanContext();
  if (ids === undefined || !isSpanContextValid(ids)) return headers;
  headers['traceparent'] = `00-${ids.traceId}-${ids.spanId}-${(ids.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  if (ids.traceState !== undefined) headers['tracestate'] = ids.traceState.serialize();
  return headers;
}
