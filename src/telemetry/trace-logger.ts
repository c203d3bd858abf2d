import { trace } from '@opentelemetry/api';
import type { Logger } from '../pipeline/ports.ts';

function withTraceId(obj: object): object {
  if ('trace_id' in obj) return obj;
  const traceId = trace.getActiveSpan()?.spanContext().traceId;
  return traceId === undefined ? obj : { trace_id: traceId, ...obj };
}

/**
 * A logger that adds the active request's `trace_id` to every line that does not carry one, so
 * that steps and clients (including a handoff still retrying after the response went out: the
 * request's context follows it) log with the same id as the response, without each passing it.
 */
export function traceScopedLogger(base: Logger): Logger {
  return {
    debug: (obj, msg) => base.debug(withTraceId(obj), msg),
    info: (obj, msg) => base.info(withTraceId(obj), msg),
    warn: (obj, msg) => base.warn(withTraceId(obj), msg),
    error: (obj, msg) => base.error(withTraceId(obj), msg),
  };
}
