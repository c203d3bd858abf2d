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

/** A downstream call failed: unreachable, timed out, 5xx, or an answer out of contract. */
export class DownstreamError extends Error {
  readonly party: DownstreamParty;
  constructor(party: DownstreamParty, reason: string, options?: { cause?: unknown }) {
    super(`${party}: ${reason}`, options);
    this.name = 'DownstreamError';
    this.party = party;
  }
}

/** 503 body text per CONTRACTS 2: `{"detail": "<party> unavailable"}`. */
export function unavailableDetail(party: DownstreamParty): string {
  return `${party} unavailable`;
}

/** Parties whose failure fails the chat (503); the others degrade the reply instead. */
export const CRITICAL_PARTIES: ReadonlySet<DownstreamParty> = new Set(['engine', 'graphql']);

/** CONTRACTS 6.3: no outbox could take a handoff: 503 `handoff unavailable`, never a silent drop. */
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
