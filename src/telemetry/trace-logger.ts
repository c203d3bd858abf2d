import { trace } from '@opentelemetry/api';

/** The logging methods the pipeline uses (see src/pipeline/ports.ts `Logger`). */
export interface LevelLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

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
export function traceScopedLogger<L extends LevelLogger>(base: L): LevelLogger {
  return {
    debug: (obj, msg) => base.debug(withTraceId(obj), msg),
    info: (obj, msg) => base.info(withTraceId(obj), msg),
    warn: (obj, msg) => base.warn(withTraceId(obj), msg),
    error: (obj, msg) => base.error(withTraceId(obj), msg),
  };
}
