import { Agent, request, type Dispatcher } from 'undici';
import type { TSchema, Static } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import { DownstreamError, type DownstreamParty } from '../errors.ts';
import { ATTR_HTTP_RESPONSE_STATUS_CODE } from '../telemetry/attributes.ts';
import { attemptTimer, clientSpan, failureReason, setErrorType, type OutboundTelemetry } from '../telemetry/client-span.ts';
import { withTraceHeaders } from '../telemetry/outbound.ts';

/** One downstream party: where it lives, how long a call may take, and its keep-alive pool. */
export interface HttpParty {
  readonly party: DownstreamParty;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly dispatcher: Dispatcher;
  /** Tracer and metrics for its calls: a CLIENT span and a timed attempt per call. */
  readonly telemetry?: OutboundTelemetry;
}

/** A keep-alive connection pool per party, closed on shutdown. */
export function createKeepAliveAgent(): Agent {
  return new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, connections: 128, pipelining: 1 });
}

export interface JsonCall<S extends TSchema> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  /** Compiled once at module load (never per request). */
  readonly reply: TypeCheck<S>;
  /** Statuses accepted as success; 200 by default. */
  readonly okStatuses?: readonly number[];
}

const OK_200: readonly number[] = [200];

function classify(party: DownstreamParty, err: unknown): DownstreamError {
  if (err instanceof DownstreamError) return err;
  const name = (err as { name?: string } | null)?.name;
  const reason = name === 'TimeoutError' || name === 'AbortError' ? 'timed out' : 'unreachable';
  return new DownstreamError(party, reason, { cause: err });
}

interface Exchange<T> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  readonly isOk: (status: number) => boolean;
  /** Reads the answer of an accepted status; throws DownstreamError when it is out of contract. */
  readonly read: (res: Dispatcher.ResponseData) => Promise<T>;
}

/**
 * One HTTP call in a CLIENT span, timed for the downstream metrics. Every failure (unreachable,
 * timeout, non-success status, bad answer) becomes a DownstreamError naming the party.
 */
async function exchange<T>(target: HttpParty, call: Exchange<T>): Promise<T> {
  const spanCall = { party: target.party, method: call.method, baseUrl: target.baseUrl, path: call.path };
  return clientSpan(target.telemetry, spanCall, async (span) => {
    const done = attemptTimer(target.telemetry, target.party);
    let status: number | undefined;
    try {
      const res = await request(target.baseUrl + call.path, {
        method: call.method,
        headers: withTraceHeaders(call.headers),
        body: call.body === undefined ? null : JSON.stringify(call.body),
        dispatcher: target.dispatcher,
        signal: AbortSignal.timeout(target.timeoutMs),
      });
      status = res.statusCode;
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (!call.isOk(status)) {
        await res.body.dump();
        throw new DownstreamError(target.party, `answered ${status}`);
      }
      const answer = await call.read(res);
      done(undefined);
      return answer;
    } catch (err) {
      const failure = failureReason(err, status, call.isOk);
      setErrorType(span, failure);
      done(failure);
      throw classify(target.party, err);
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
    isOk: (status) => okStatuses.includes(status),
    async read(res) {
      let json: unknown;
      try {
        json = await res.body.json();
      } catch (err) {
        throw new DownstreamError(target.party, 'answered invalid JSON', { cause: err });
      }
      if (!call.reply.Check(json)) {
        const first = call.reply.Errors(json).First();
        throw new DownstreamError(target.party, `answer out of contract at '${first?.path ?? ''}'`);
      }
      return json;
    },
  });
}

const is2xx = (status: number) => status >= 200 && status <= 299;

/** POSTs JSON where only the status matters (e.g. a 202 Accepted); the answer body is discarded. */
export async function postAccepted(target: HttpParty, path: string, body: unknown): Promise<number> {
  return exchange(target, {
    method: 'POST',
    path,
    body,
    headers: { 'content-type': 'application/json' },
    isOk: is2xx,
    async read(res) {
      await res.body.dump();
      return res.statusCode;
    },
  });
}
