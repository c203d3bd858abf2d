/**
 * Every error the service answers with, and its status. Expected failures (bad input, a downstream
 * that is down) are these classes; anything else is a defect and becomes a 500 without internals.
 */
export type DownstreamParty = 'engine' | 'graphql' | 'translate' | 'handoff' | 'propertyApi';

/** 400: the message names the offending field and is shown to the caller. */
export class RequestValidationError extends Error {
  readonly statusCode = 400;
  readonly field: string;
  constructor(field: string, problem: string) {
    super(`Invalid request: '${field}' ${problem}`);
    this.name = 'RequestValidationError';
    this.field = field;
  }
}

/**
 * The party failed: refused or reset the connection, took longer than its time, answered a status
 * it should not, or an answer that is malformed or out of contract. Only the party's own failures
 * are this error (a 503 for a critical party, a degraded reply for the others).
 */
export class DownstreamError extends Error {
  readonly party: DownstreamParty;
  /** What went wrong, in fixed words (safe to log): `timed out`, `answered 503`, ... */
  readonly reason: string;
  /** The HTTP status of the party's answer, when it answered (e.g. a 4xx not worth retrying). */
  readonly status: number | undefined;
  constructor(party: DownstreamParty, reason: string, options?: { cause?: unknown; status?: number }) {
    super(`${party}: ${reason}`, options);
    this.name = 'DownstreamError';
    this.party = party;
    this.reason = reason;
    this.status = options?.status;
  }
}

/** Seconds a caller refused for a busy connection pool is asked to wait (docs/api.md#fair-shares). */
export const POOL_BUSY_RETRY_AFTER_S = 1;

/**
 * Every connection of the party's pool stayed taken for the call's share of its time
 * (src/clients/party-slots.ts): the party was not called. For a critical party a 503 naming it,
 * with `Retry-After`; the other parties degrade as for any failure of theirs.
 */
export class PartyPoolBusyError extends DownstreamError {
  readonly retryAfterSeconds = POOL_BUSY_RETRY_AFTER_S;
  constructor(party: DownstreamParty) {
    super(party, 'no connection free within its share of the deadline');
    this.name = 'PartyPoolBusyError';
  }
}

/**
 * The service could not build or send its own request to a party (a body that cannot be
 * serialized, an invalid header value or path): a defect of this service, answered 500 like any
 * other, never blamed on the party. The party was not called.
 */
export class OutboundRequestError extends Error {
  readonly party: DownstreamParty;
  constructor(party: DownstreamParty, cause: unknown) {
    super(`${party}: the request could not be built or sent`, { cause });
    this.name = 'OutboundRequestError';
    this.party = party;
  }
}

/** 503 body text per docs/api.md#errors: `{"detail": "<party> unavailable"}`. */
export function unavailableDetail(party: DownstreamParty): string {
  return `${party} unavailable`;
}

/** Parties whose failure fails the chat (503); the others degrade the reply instead. */
export const CRITICAL_PARTIES: ReadonlySet<DownstreamParty> = new Set(['engine', 'graphql']);

/** docs/operations.md#handoffs-and-dead-letters: no outbox could take a handoff: 503 `handoff unavailable`, never a silent drop. */
export class OutboxUnavailableError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`handoff outbox: ${reason}`, options);
    this.name = 'OutboxUnavailableError';
  }
}

/** A step failed with an unexpected error: keeps the step's name and the original cause. */
export class StepError extends Error {
  readonly step: string;
  constructor(step: string, cause: unknown) {
    super(`step ${step} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StepError';
    this.step = step;
  }
}

/** Unwraps StepError to the error a step actually threw. */
export function rootCause(err: unknown): unknown {
  return err instanceof StepError ? err.cause : err;
}

/** What was thrown, as an Error (a non-Error value becomes one holding its text), for events and logs. */
export function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
