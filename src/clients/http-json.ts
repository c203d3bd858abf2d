import { Agent, request, type Dispatcher } from 'undici';
import type { TSchema, Static } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import { DownstreamError, type DownstreamParty } from '../errors.ts';
import { withTraceHeaders } from '../telemetry/outbound.ts';

/** One downstream party: where it lives, how long a call may take, and its keep-alive pool. */
export interface HttpParty {
  readonly party: DownstreamParty;
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly dispatcher: Dispatcher;
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

/**
 * Calls a JSON endpoint and checks the answer against its schema. Every failure (unreachable, timeout,
 * non-success status, bad JSON, out-of-contract shape) becomes a DownstreamError naming the party.
 */
export async function callJson<S extends TSchema>(target: HttpParty, call: JsonCall<S>): Promise<Static<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await request(target.baseUrl + call.path, {
      method: call.method,
      headers: withTraceHeaders(headers),
      body: call.body === undefined ? null : JSON.stringify(call.body),
      dispatcher: target.dispatcher,
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    if (!(call.okStatuses ?? OK_200).includes(res.statusCode)) {
      await res.body.dump();
      throw new DownstreamError(target.party, `answered ${res.statusCode}`);
    }
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
  } catch (err) {
    throw classify(target.party, err);
  }
}

/** POSTs JSON where only the status matters (e.g. a 202 Accepted); the answer body is discarded. */
export async function postAccepted(target: HttpParty, path: string, body: unknown): Promise<number> {
  try {
    const res = await request(target.baseUrl + path, {
      method: 'POST',
      headers: withTraceHeaders({ 'content-type': 'application/json' }),
      body: JSON.stringify(body),
      dispatcher: target.dispatcher,
      signal: AbortSignal.timeout(target.timeoutMs),
    });
    await res.body.dump();
    if (res.statusCode < 200 || res.statusCode > 299) {
      throw new DownstreamError(target.party, `answered ${res.statusCode}`);
    }
    return res.statusCode;
  } catch (err) {
    throw classify(target.party, err);
  }
}
