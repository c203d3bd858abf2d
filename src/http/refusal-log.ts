/**
 * Refusals at warn (docs/observability.md#logs): a chat refused with 401, 403, 422, 429 or 503
 * (caller key, tenant, idempotency mismatch, rate or concurrency limit, overload, session busy,
 * shutting down) is one `request refused` line with its status, its reason (the answer's own
 * `detail`, a fixed text of the service) and the request's `trace_id`, so that prod's `warn` level
 * keeps them. Rate-limited: at most one line per status and reason every `intervalMs`; the next
 * line says how many were not written in between (`suppressed`). An overload burst of 86,000
 * refusals writes a few lines, not 86,000.
 *
 * Failures the error handler already logged at warn (a party unavailable) are not logged twice.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const REFUSALS: ReadonlySet<number> = new Set([401, 403, 422, 429, 503]);
/** Reasons are fixed texts (a handful); the bound only guards against a future free-form one. */
const MAX_KEYS = 64;
const MAX_REASON_CHARS = 120;
export const REFUSAL_LOG_INTERVAL_MS = 10_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The `detail` of a refusal, read from the answer as it goes out. */
    refusalReason: string | undefined;
    /** The error handler wrote this request's warning already. */
    errorLogged: boolean;
  }
}

export function decorateRefusals(app: FastifyInstance): void {
  app.decorateRequest('refusalReason', undefined);
  app.decorateRequest('errorLogged', false);
}

/** For an onSend hook: keeps the `detail` of a refusal's body (only refusals are read). */
export function captureRefusal(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
  if (!REFUSALS.has(reply.statusCode) || typeof payload !== 'string' || payload.length > 4096) return;
  try {
    const detail = (JSON.parse(payload) as { detail?: unknown }).detail;
    if (typeof detail === 'string') request.refusalReason = detail.slice(0, MAX_REASON_CHARS);
  } catch {
    // not a JSON body: no reason to give
  }
}

interface Window {
  lastAt: number;
  suppressed: number;
}

export type RefusalLogger = (request: FastifyRequest, status: number, route: string) => void;

/** The rate-limited warn line; `now` is injectable for tests. */
export function refusalLogger(intervalMs = REFUSAL_LOG_INTERVAL_MS, now: () => number = Date.now): RefusalLogger {
  const windows = new Map<string, Window>();
  return (request, status, route) => {
    if (!REFUSALS.has(status) || request.errorLogged) return;
    const reason = request.refusalReason ?? 'unknown';
    const key = `${status} ${reason}`;
    const at = now();
    let window = windows.get(key);
    if (window !== undefined && at - window.lastAt < intervalMs) {
      window.suppressed += 1;
      return;
    }
    if (window === undefined) {
      if (windows.size >= MAX_KEYS) windows.clear();
      window = { lastAt: at, suppressed: 0 };
      windows.set(key, window);
    }
    const suppressed = window.suppressed;
    window.lastAt = at;
    window.suppressed = 0;
    request.log.warn({ status, reason, route, method: request.method, suppressed }, 'request refused');
  };
}
