import { ClientError, GraphQLClient } from 'graphql-request';
import type { Dispatcher } from 'undici';
import { DownstreamError, OutboundRequestError } from '../errors.ts';
import { withTraceHeaders } from '../telemetry/outbound.ts';
import type { CallTimer } from './call-timer.ts';
import { parseBoundedJson } from './json-answer.ts';
import { poolFetch } from './pool-fetch.ts';

export interface GraphqlEndpoint {
  readonly url: string;
  /** The GraphQL API's pool (party-pool.ts). */
  readonly dispatcher: Dispatcher;
  /** Headers sent with every call (the per-environment secrets of docs/contracts.md#graphql-store). */
  readonly headers: Readonly<Record<string, string>>;
}

export interface GraphqlAttempt {
  readonly document: string;
  readonly variables: object;
  /** The request's graphql_api_key, sent as `x-graphql-api-key`. */
  readonly callerApiKey: string;
  /** The call's timeout (call-timer.ts): graphql-request passes it unread to pool-fetch, which gives it to undici. */
  readonly signal: CallTimer['signal'];
}

/** What graphql-request answers: the HTTP status and the operation's `data`. */
export interface GraphqlAnswer {
  readonly status: number;
  readonly data: unknown;
}

/**
 * One HTTP attempt through graphql-request, whose `fetch` is built on the pool's plain `request`
 * (pool-fetch.ts). graphql-request builds the request (body, headers, URL) and then calls that
 * fetch: a failure before the hand-over is the service's own (an OutboundRequestError, never
 * blamed on the API); one after it, or a ClientError (a status or GraphQL errors), is the API's,
 * and an answer graphql-request cannot read is a DownstreamError carrying its status.
 * The operation name is not parsed out of the document on every call (`excludeOperationName`):
 * each document holds one operation, named in it and on the span.
 */
export function graphqlAttempts(endpoint: GraphqlEndpoint): (call: GraphqlAttempt) => Promise<GraphqlAnswer> {
  const transport = poolFetch(endpoint.dispatcher);
  return async (call) => {
    let handedOver = false;
    let answered: number | undefined;
    // The fixed and per-call headers go straight to undici, not through graphql-request's
    // WHATWG Headers (which it builds from `requestHeaders` on every call).
    const headers = withTraceHeaders({ ...endpoint.headers, 'x-graphql-api-key': call.callerApiKey });
    const client = new GraphQLClient(endpoint.url, {
      excludeOperationName: true,
      // Depth-checked, and no __proto__ / constructor / prototype member survives (json-answer.ts).
      jsonSerializer: { parse: parseBoundedJson, stringify: JSON.stringify },
      fetch: (async (url: URL, init: RequestInit) => {
        handedOver = true;
        const res = await transport(url, init, headers);
        answered = res.status;
        return res;
      }) as unknown as typeof fetch,
    });
    try {
      return await client.rawRequest<unknown>({
        query: call.document,
        variables: call.variables,
        signal: call.signal as unknown as AbortSignal,
      });
    } catch (err) {
      if (!handedOver) throw new OutboundRequestError('graphql', err);
      if (answered === undefined || err instanceof ClientError) throw err;
      throw new DownstreamError('graphql', 'answered malformed JSON', { cause: err, status: answered });
    }
  };
}
