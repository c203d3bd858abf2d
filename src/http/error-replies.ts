/**
 * Every error answer of the service (docs/api.md#errors) goes out through `sendError`: its status,
 * the `{detail}` body (a text, or a message with the request's trace id) and the headers that come
 * with it (`Retry-After`, `WWW-Authenticate`, ...), so the shape is decided here once. `errorReply`
 * maps an error thrown while serving a request to what the client is told.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply } from 'fastify';
import { BODY_LIMIT_BYTES } from '../../schemas/chat-request.schema.ts';
import { CRITICAL_PARTIES, DownstreamError, PartyPoolBusyError, OutboxUnavailableError, RequestValidationError, rootCause, unavailableDetail, type DownstreamParty } from '../errors.ts';
import { MalformedJsonError } from './json-body.ts';
import { validationMessage, type SchemaError } from './validation-message.ts';

/** The `detail` of an error answer: a fixed text, or (400, 500) a message with the request's trace id. */
export type Detail = string | { readonly message: string; readonly trace_id: string };

/** Headers an error answer carries besides its body (`Retry-After`, `WWW-Authenticate`, `RateLimit-*`, ...). */
export type ErrorHeaders = Readonly<Record<string, string | number>>;

/** The body of every error answer. */
export function errorBody(detail: Detail): { readonly detail: Detail } {
  return { detail };
}

/** Answers `status` with `{detail}` and `headers`: the one way an error answer is sent. */
export function sendError(reply: FastifyReply, status: number, detail: Detail, headers?: ErrorHeaders): FastifyReply {
  void reply.code(status);
  if (headers !== undefined) for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
  return reply.send(errorBody(detail));
}

/** What the client is told of a failure: a status and the `detail` of docs/api.md#errors. */
export interface ErrorReply {
  readonly status: number;
  readonly detail: Detail;
  /** Expected failures are logged at warn without a stack; defects at error. */
  readonly defect: boolean;
  /** The log line's message: a party that is down is logged as that party's failure. */
  readonly logMessage: string;
  /** The party whose failure this is (503). */
  readonly party?: DownstreamParty;
  /** Sent as `Retry-After` (a pool with no connection free: docs/api.md#fair-shares). */
  readonly retryAfterSeconds?: number;
}

const logMessage = (defect: boolean): string => (defect ? 'request failed' : 'request rejected');
const withTrace = (status: number, message: string, traceId: string, defect = false): ErrorReply => ({
  status,
  detail: { message, trace_id: traceId },
  defect,
  logMessage: logMessage(defect),
});
const text = (status: number, detail: string): ErrorReply => ({ status, detail, defect: false, logMessage: logMessage(false) });
const unavailable = (party: DownstreamParty): ErrorReply => ({
  status: 503,
  detail: unavailableDetail(party),
  defect: false,
  logMessage: unavailableDetail(party),
  party,
});

/** Maps any error thrown while serving a request to the status and body of docs/api.md#errors. */
export function errorReply(raw: unknown, traceId: string): ErrorReply {
  const err = rootCause(raw);
  if (err instanceof RequestValidationError) return withTrace(400, err.message, traceId);
  if (err instanceof DownstreamError) {
    if (!CRITICAL_PARTIES.has(err.party)) return withTrace(500, 'Internal server error', traceId, true);
    return err instanceof PartyPoolBusyError ? { ...unavailable(err.party), retryAfterSeconds: err.retryAfterSeconds } : unavailable(err.party);
  }
  if (err instanceof OutboxUnavailableError) return text(503, unavailableDetail('handoff'));
  const fe = err as Partial<FastifyError> & Error;
  if (fe.validation) return withTrace(400, validationMessage(fe.validation[0] as SchemaError | undefined), traceId);
  // Fastify's own body errors (too large, not JSON) carry their status.
  if (fe.statusCode === 413) return text(413, `Request body must be at most ${BODY_LIMIT_BYTES} bytes`);
  if (fe.statusCode === 415) return text(415, 'Content-Type must be application/json');
  if (fe.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') {
    return withTrace(400, 'Invalid request: Content-Length does not match the body', traceId);
  }
  if (fe instanceof MalformedJsonError) return withTrace(400, fe.message, traceId);
  if (fe.statusCode === 400) return withTrace(400, 'Invalid request: the body is not valid JSON', traceId);
  // Any other refusal of a plugin (the static files' 403 for a traversal probe or a dot-file, a
  // 404, a 405) is the caller's doing: its status, in the detail shape, logged without a stack.
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 401 && fe.statusCode <= 499) {
    return text(fe.statusCode, STATUS_CODES[fe.statusCode] ?? 'Request refused');
  }
  return withTrace(500, 'Internal server error', traceId, true);
}
