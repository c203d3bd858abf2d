import { context, propagation } from '@opentelemetry/api';

/** Adds the W3C `traceparent` (and `tracestate`) of the active context to outbound headers. */
export function withTraceHeaders(headers: Record<string, string>): Record<string, string> {
  propagation.inject(context.active(), headers);
  return headers;
}
