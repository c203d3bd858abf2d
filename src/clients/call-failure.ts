import { DownstreamError, OutboundRequestError, type DownstreamParty } from '../errors.ts';

/*
 * The one place that says what a failed downstream call was: the party's failure (a DownstreamError:
 * refused, reset, timed out, a status it should not answer, a malformed or out-of-contract answer)
 * or the service's own (an OutboundRequestError: a request it could not build or send). Every client
 * and the client spans use it, so a reason means the same thing in errors, metrics and traces.
 */

export const is2xx = (status: number): boolean => status >= 200 && status <= 299;

/** The error or one of its causes is a timeout or an abort (the cause chain is followed a few levels). */
export function isTimeout(err: unknown): boolean {
  let e = err as { name?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; depth < 4 && e != null; depth++) {
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * undici refused the request before sending anything (an invalid header value, path or body): the
 * party never saw it, so it is not the party's failure.
 */
export function isRejectedBeforeSending(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED' || err instanceof OutboundRequestError;
}

/**
 * A bounded reason for a failed attempt, used as a metric label and as the span's `error.type`:
 * `request_error` (the service's own), `timeout`, `status_<n>`, `bad_reply` (an accepted status
 * with an answer out of contract) or `unreachable` (refused, reset, even mid-answer).
 */
export function failureReason(err: unknown, status: number | undefined, okStatus: (status: number) => boolean): string {
  if (isRejectedBeforeSending(err)) return 'request_error';
  if (isTimeout(err)) return 'timeout';
  if (status === undefined) return 'unreachable';
  if (!okStatus(status)) return `status_${status}`;
  return err instanceof DownstreamError ? 'bad_reply' : 'unreachable';
}

/** Where the time limit of a call came from (see call-timer.ts), for a reason that says which. */
export interface TimeLimited {
  readonly byDeadline: boolean;
}

/** A reason that is safe to log: fixed text, never a header, body or the cause's own message. */
export function timeoutOrUnreachable(err: unknown, limit?: TimeLimited): string {
  if (!isTimeout(err)) return 'unreachable';
  return limit?.byDeadline === true ? 'timed out at the chat deadline' : 'timed out';
}

/**
 * The error a client throws for a failed call: errors already classified pass through; a request
 * the service could not send is its own defect; anything else happened on the way to or from the
 * party and is the party's failure.
 */
export function callError(party: DownstreamParty, err: unknown, limit?: TimeLimited): DownstreamError | OutboundRequestError {
  if (err instanceof DownstreamError || err instanceof OutboundRequestError) return err;
  if (isRejectedBeforeSending(err)) return new OutboundRequestError(party, err);
  return new DownstreamError(party, timeoutOrUnreachable(err, limit), { cause: err });
}
