import type { Attributes, Span } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import type { TSchema, Static } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import { DownstreamError, OutboundRequestError, type DownstreamParty } from '../errors.ts';
import { ATTR_HTTP_RESPONSE_STATUS_CODE } from '../telemetry/attributes.ts';
import { attemptTimer, clientSpan, setErrorType, type OutboundTelemetry } from '../telemetry/fast/client-span.ts';
import { withTraceHeaders } from '../telemetry/outbound.ts';
import { callError, failureReason } from './call-failure.ts';
import { callLimit, startCallTimer, type CallTimer } from './call-timer.ts';
import { requestBuffered, type BufferedAnswer } from './buffered-request.ts';
import { AnswerBoundError, DEFAULT_MAX_ANSWER_BYTES, parseBoundedJson, readBoundedText } from './json-answer.ts';
import { partyAddress } from './party-pool.ts';
import type { PartySlots } from './party-slots.ts';

/** One downstream party: where it lives, how long a call may take, and its keep-alive pool. */
export interface HttpParty {
  readonly party: DownstreamParty;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** Its pool (party-pool.ts); an Agent works too, since every call also names the origin. */
  readonly dispatcher: Dispatcher;
  /** Tracer and metrics for its calls: a CLIENT span and a timed attempt per call. */
  readonly telemetry?: OutboundTelemetry;
  /** The bounded wait for a connection of its pool (party-slots.ts); none = undici's own queue. */
  readonly slots?: PartySlots;
}

export interface JsonCall<S extends TSchema> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  /** Compiled once at module load (never per request). */
  readonly reply: TypeCheck<S>;
  /** Statuses accepted as success; 200 by default. */
  readonly okStatuses?: readonly number[];
  /** The chat's deadline (`performance.now()` clock): the call gets at most the time left. */
  readonly deadlineAt?: number | undefined;
  /** The largest answer read (docs/api.md#limits); a larger one is out of contract. 1 MiB by default. */
  readonly maxBytes?: number;
  /** The CLIENT span's name and extra attributes, when the call is more than HTTP (a GenAI call). */
  readonly spanName?: string;
  readonly attributes?: Attributes;
  /** Aborts the call when fired (a stopped reply). */
  readonly stop?: AbortSignal | undefined;
}

const OK_200: readonly number[] = [200];

/** What every call says about itself, whichever way its answer is read. */
interface CallShape {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  readonly deadlineAt: number | undefined;
  readonly isOk: (status: number) => boolean;
  /** Extra attributes of the CLIENT span. */
  readonly attributes?: Attributes;
  /** The CLIENT span's name when not `{method} {url.template}` (the engine's GenAI span: `chat`). */
  readonly spanName?: string;
  /** Aborts the call when fired (a stopped reply, docs/api.md#stopping-a-streamed-reply). */
  readonly stop?: AbortSignal | undefined;
}

/** A call that reads its answer as it arrives (a streamed engine answer). */
export interface Exchange<T> extends CallShape {
  /** Reads the answer of an accepted status; throws DownstreamError when it is out of contract. */
  readonly read: (res: Dispatcher.ResponseData, span: Span) => Promise<T>;
}

/** A call whose answer is read whole first (buffered-request.ts), within `maxBytes`. */
export interface BufferedExchange<T> extends CallShape {
  readonly maxBytes: number;
  /** Reads the answer of an accepted status; throws DownstreamError when it is out of contract. */
  readonly read: (answer: BufferedAnswer) => T;
}

/** The body as sent; a value that cannot be serialized (cyclic, too deep) is the service's own defect. */
function serialize(party: DownstreamParty, body: unknown): string | null {
  if (body === undefined) return null;
  try {
    return JSON.stringify(body);
  } catch (err) {
    throw new OutboundRequestError(party, err);
  }
}

/** Fires the call's timer signal when `stop` fires (at once if it already has); returns the listener's removal. */
function stopWith(stop: AbortSignal, timer: CallTimer): () => void {
  const abort = () => timer.abort(new DOMException('The reply was stopped.', 'AbortError'));
  if (stop.aborted) {
    abort();
    return () => {};
  }
  stop.addEventListener('abort', abort, { once: true });
  return () => stop.removeEventListener('abort', abort);
}

/** One attempt's request, as undici takes it; `signal` is the call's timer. */
interface Attempt {
  readonly origin: string;
  readonly path: string;
  readonly method: 'GET' | 'POST';
  readonly headers: Record<string, string>;
  readonly body: string | null;
  readonly signal: CallTimer['signal'];
  /** Sets the status the call is classified by (and the span's attribute) as soon as it is known. */
  readonly onStatus: (status: number) => void;
}

/**
 * One HTTP call in a CLIENT span, timed for the downstream metrics. A failure of the party
 * (unreachable, timeout, non-success status, bad answer) becomes a DownstreamError naming it; a
 * request the service could not build or send is an OutboundRequestError (a 500, not the party's).
 * With no time left before the chat's deadline, nothing is called.
 */
async function timedCall<T>(target: HttpParty, call: CallShape, send: (attempt: Attempt, span: Span) => Promise<T>): Promise<T> {
  if (target.slots === undefined) return slottedCall(target, call, send);
  callLimit(target.party, target.timeoutMs, call.deadlineAt); // no time left: no wait either
  // A connection within the call's share of its time, or PartyPoolBusyError (503, Retry-After) at once.
  const release = await target.slots.acquire(target.timeoutMs, call.deadlineAt);
  try {
    return await slottedCall(target, call, send);
  } finally {
    release();
  }
}

/** The call itself, once it has its connection slot: its limit is what is left after the wait. */
async function slottedCall<T>(target: HttpParty, call: CallShape, send: (attempt: Attempt, span: Span) => Promise<T>): Promise<T> {
  const limit = callLimit(target.party, target.timeoutMs, call.deadlineAt);
  const body = serialize(target.party, call.body);
  const address = partyAddress(target.baseUrl);
  const spanCall = {
    party: target.party,
    method: call.method,
    baseUrl: target.baseUrl,
    path: call.path,
    ...(call.attributes !== undefined && { attributes: call.attributes }),
    ...(call.spanName !== undefined && { spanName: call.spanName }),
  };
  return clientSpan(target.telemetry, spanCall, async (span) => {
    const done = attemptTimer(target.telemetry, target.party);
    const timer = startCallTimer(limit);
    const stopped = call.stop === undefined ? undefined : stopWith(call.stop, timer);
    let status: number | undefined;
    try {
      const answer = await send(
        {
          origin: address.origin,
          path: address.basePath + call.path,
          method: call.method,
          headers: withTraceHeaders(call.headers),
          body,
          signal: timer.signal,
          onStatus: (answered) => {
            status = answered;
            span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, answered);
          },
        },
        span,
      );
      done(undefined);
      return answer;
    } catch (thrown) {
      // An answer over its bounds (size or depth), however it was read, is the party's bad answer.
      const err = thrown instanceof AnswerBoundError ? new DownstreamError(target.party, thrown.reason, status === undefined ? {} : { status }) : thrown;
      // A stopped reply's call is not the party's failure (nor a timeout): its own reason.
      const failure = call.stop?.aborted === true ? 'stopped' : failureReason(err, status, call.isOk);
      setErrorType(span, failure);
      done(failure);
      throw callError(target.party, err, limit);
    } finally {
      timer.clear();
      stopped?.();
    }
  });
}

/** A call whose answer is read as it arrives, through undici's `request` (the answer a stream). */
export async function exchange<T>(target: HttpParty, call: Exchange<T>): Promise<T> {
  return timedCall(target, call, async ({ onStatus, ...attempt }, span) => {
    const res = await target.dispatcher.request(attempt);
    onStatus(res.statusCode);
    if (!call.isOk(res.statusCode)) {
      await res.body.dump();
      throw new DownstreamError(target.party, `answered ${res.statusCode}`, { status: res.statusCode });
    }
    return call.read(res, span);
  });
}

/** A call whose answer is read whole before it is looked at (buffered-request.ts): every JSON call. */
async function exchangeBuffered<T>(target: HttpParty, call: BufferedExchange<T>): Promise<T> {
  return timedCall(target, call, async (attempt) => {
    const answer = await requestBuffered(target.dispatcher, { ...attempt, maxBytes: call.maxBytes, wantsText: call.isOk });
    if (!call.isOk(answer.statusCode)) throw new DownstreamError(target.party, `answered ${answer.statusCode}`, { status: answer.statusCode });
    return call.read(answer);
  });
}

/** Calls a JSON endpoint and checks the answer against its schema. */
export async function callJson<S extends TSchema>(target: HttpParty, call: JsonCall<S>): Promise<Static<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const okStatuses = call.okStatuses ?? OK_200;
  return exchangeBuffered(target, {
    method: call.method,
    path: call.path,
    body: call.body,
    headers,
    deadlineAt: call.deadlineAt,
    stop: call.stop,
    isOk: (status) => okStatuses.includes(status),
    maxBytes: call.maxBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    ...(call.spanName !== undefined && { spanName: call.spanName }),
    ...(call.attributes !== undefined && { attributes: call.attributes }),
    read: (answer) => checkedJson(target.party, answer.text, answer.statusCode, call.reply),
  });
}

/**
 * A JSON answer read as it arrives, within `maxBytes` (json-answer.ts), and checked against its
 * schema. An answer over its bounds throws AnswerBoundError, which the call (timedCall) reports as
 * the party's; a reset or a timeout while reading keeps its own error, never bad JSON.
 */
export async function readCheckedJson<S extends TSchema>(party: DownstreamParty, res: Dispatcher.ResponseData, reply: TypeCheck<S>, maxBytes: number): Promise<Static<S>> {
  return checkedJson(party, await readBoundedText(res.body, res.headers['content-length'], maxBytes), res.statusCode, reply);
}

/** The answer's text parsed within the depth bound (json-answer.ts) and checked against its schema. */
function checkedJson<S extends TSchema>(party: DownstreamParty, text: string, status: number, reply: TypeCheck<S>): Static<S> {
  let json: unknown;
  try {
    json = parseBoundedJson(text);
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
    throw new DownstreamError(party, 'answered invalid JSON', { cause: err, status });
  }
  if (!reply.Check(json)) {
    const first = reply.Errors(json).First();
    throw new DownstreamError(party, `answer out of contract at '${first?.path ?? ''}'`, { status });
  }
  return json;
}
