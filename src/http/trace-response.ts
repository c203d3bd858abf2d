/**
 * The trace id on every answer (docs/api.md#trace-id-header): a W3C Trace Context Level 2
 * `traceresponse: 00-<trace-id>-<span-id>-<flags>` header naming the request's SERVER span, set in
 * the first onRequest hook, so that a 2xx, every 4xx and 5xx, a 503 while shutting down, a
 * preflight and a streamed answer (whose head is written from `reply.getHeaders()`) all carry it.
 * Its trace id is the body's `trace_id` and the logs' and spans'. Requests that make no trace
 * (`/heartbeat`, `/metrics`) carry their random request id and flags `00` (not sampled).
 */
import { TraceFlags, isSpanContextValid, type Span } from '@opentelemetry/api';
import { newSpanId } from '../telemetry/fast/timed-span.ts';

export const TRACE_RESPONSE_HEADER = 'traceresponse';

export function traceResponse(span: Span, requestId: string): string {
  const ids = span.spanContext();
  if (!isSpanContextValid(ids)) return `00-${requestId}-${newSpanId()}-00`;
  const sampled = (ids.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED;
  return `00-${ids.traceId}-${ids.spanId}-${sampled ? '01' : '00'}`;
}

/** The trace id a `traceresponse` value carries (what a front-end hands to support). */
export function traceIdOf(header: string): string | undefined {
  const parts = header.split('-');
  return parts.length === 4 && parts[1]?.length === 32 ? parts[1] : undefined;
}
