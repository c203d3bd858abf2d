import type { Attributes, Span } from '@opentelemetry/api';
import type { Dispatcher } from 'undici';
import type { TSchema, Static } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import { DownstreamError, OutboundRequestError, type DownstreamParty } from '../errors.ts';
import { ATTR_HTTP_RESPONSE_STATUS_CODE } from '../telemetry/attributes.ts';
import { attemptTimer, clientSpan, setErrorType, type OutboundTelemetry } from '../telemetry/client-span.ts';
import { withTraceHeaders } from '../telemetry/outbound.ts';
import { callError, failureReason, is2xx } from './call-failure.ts';
import { callLimit, startCallTimer } from './call-timer.ts';
import { AnswerBoundError, DEFAULT_MAX_ANSWER_BYTES, parseBoundedJson, readBoundedText } from './json-answer.ts';
import { partyAddress } from './party-pool.ts';

/** One downstream party: where it lives, how long a call may take, and its keep-alive pool. */
export interface HttpParty {
  readonly party: DownstreamParty;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** Its pool (party-pool.ts); an Agent works too, since every call also names the origin. */
  readonly dispatcher: Dispatcher;
  /** Tracer and metrics for its calls: a CLIENT span and a timed attempt per call. */
  readonly telemetry?: OutboundTelemetry;
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
}

const OK_200: readonly number[] = [200];

export interface Exchange<T> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  readonly deadlineAt: number | undefined;
  readonly isOk: (status: number) => boolean;
  /** Extra attributes of the CLIENT span. */
  readonly attributes?: Attributes;
  /** Reads the answer of an accepted status; throws DownstreamError when it is out of contract. */
  readonly read: (res: Dispatcher.ResponseData, span: Span) => Promise<T>;
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

/**
 * One HTTP call in a CLIENT span, timed for the downstream metrics. A failure of the party
 * (unreachable, timeout, non-success status, bad answer) becomes a DownstreamError naming it; a
 * request the service could not build or send is an OutboundRequestError (a 500, not the party's).
 * With no time left before the chat's deadline, nothing is called.
 */
export async function exchange<T>(target: HttpParty, call: Exchange<T>): Promise<T> {
  const limit = callLimit(target.party, target.timeoutMs, call.deadlineAt);
  const body = serialize(target.party, call.body);
  const address = partyAddress(target.baseUrl);
  const spanCall = { party: target.party, method: call.method, baseUrl: target.baseUrl, path: call.path, ...(call.attributes !== undefined && { attributes: call.attributes }) };
  return clientSpan(target.telemetry, spanCall, async (span) => {
    const done = attemptTimer(target.telemetry, target.party);
    const timer = startCallTimer(limit);
    let status: number | undefined;
    try {
      const res = await target.dispatcher.request({
        origin: address.origin,
        path: address.basePath + call.path,
        method: call.method,
        headers: withTraceHeaders(call.headers),
        body,
        signal: timer.signal,
      });
      status = res.statusCode;
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (!call.isOk(status)) {
        await res.body.dump();
        throw new DownstreamError(target.party, `answered ${status}`, { status });
      }
      const answer = await call.read(res, span);
      done(undefined);
      return answer;
    } catch (err) {
      const failure = failureReason(err, status, call.isOk);
      setErrorType(span, failure);
      done(failure);
      throw callError(target.party, err, limit);
    } finally {
      timer.clear();
    }
  });
}

/** Calls a JSON endpoint and checks the answer against its schema. */
export async function callJson<S extends TSchema>(target: HttpParty, call: JsonCall<S>): Promise<Static<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const okStatuses = call.okStatuses ?? OK_200;
  return exchange(target, {
    method: call.method,
    path: call.path,
    body: call.body,
    headers,
    deadlineAt: call.deadlineAt,
    isOk: (status) => okStatuses.includes(status),
    read: (res) => readCheckedJson(target.party, res, call.reply, call.maxBytes ?? DEFAULT_MAX_ANSWER_BYTES),
  });
}

/** A JSON answer read within `maxBytes` (json-answer.ts) and checked against its schema; DownstreamError when out of contract. */
export async function readCheckedJson<S extends TSchema>(party: DownstreamParty, res: Dispatcher.ResponseData, reply: TypeCheck<S>, maxBytes: number): Promise<Static<S>> {
  let json: unknown;
  try {
    json = parseBoundedJson(await readBoundedText(res.body, res.headers['content-length'], maxBytes));
  } catch (err) {
    // A connection reset or a timeout while reading is classified as such, not as bad JSON.
    if (err instanceof AnswerBoundError) throw new DownstreamError(party, err.reason, { status: res.statusCode });
    if (!(err instanceof SyntaxError)) throw err;
    throw new DownstreamError(party, 'answered invalid JSON', { cause: err, status: res.statusCode });
  }
  if (!reply.Check(json)) {
    const first = reply.Errors(json).First();
    throw new DownstreamError(party, `answer out of contract at '${first?.path ?? ''}'`, { status: res.statusCode });
  }
  return json;
}

export interface PostOptions {
  /** Extra request headers (e.g. an `Idempotency-Key`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly deadlineAt?: number | undefined;
}

/**
 * POSTs JSON where only the status matters (e.g. a 202 Accepted); the answer body is discarded.
 * A non-2xx answer is a DownstreamError carrying the `status`, so a caller can tell a 4xx from a 5xx.
 */
export async function postAccepted(target: HttpParty, path: string, body: unknown, options: PostOptions = {}): Promise<number> {
  return exchange(target, {
    method: 'POST',
    path,
    body,
    headers: { ...options.headers, 'content-type': 'application/json' },
    deadlineAt: options.deadlineAt,
    isOk: is2xx,
    async read(res) {
      await res.body.dump();
      return res.statusCode;
    },
  });
}
