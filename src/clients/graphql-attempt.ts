import type { Dispatcher } from 'undici';
import { DownstreamError, OutboundRequestError } from '../errors.ts';
import { withTraceHeaders } from '../telemetry/outbound.ts';
import { requestBuffered } from './buffered-request.ts';
import type { CallTimer } from './call-timer.ts';
import { is2xx } from './call-failure.ts';
import { AnswerBoundError, DEFAULT_MAX_ANSWER_BYTES, parseBoundedJson } from './json-answer.ts';

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
  /** The call's timeout (call-timer.ts). */
  readonly signal: CallTimer['signal'];
  /** Told the HTTP status as soon as it arrives. */
  readonly onStatus: (status: number) => void;
}

/**
 * The API answered, but not with data: a status other than 2xx, or GraphQL `errors` in the answer.
 * Its message is fixed text (never the errors' own messages, which may repeat the variables).
 */
export class GraphqlAnswerError extends Error {
  readonly status: number;
  readonly errorCount: number;
  constructor(status: number, errorCount: number) {
    super(is2xx(status) ? `answered ${errorCount} GraphQL error(s)` : `answered ${status}`);
    this.name = 'GraphqlAnswerError';
    this.status = status;
    this.errorCount = errorCount;
  }
}

/** What GraphQL over HTTP answers (the members read here). */
interface GraphqlResponse {
  readonly data?: unknown;
  readonly errors?: unknown;
}

/** The `data` of an answer, or GraphqlAnswerError / DownstreamError when there is none to use. */
function dataOf(status: number, text: string): unknown {
  let answer: GraphqlResponse | null;
  try {
    answer = parseBoundedJson(text) as GraphqlResponse | null;
  } catch (err) {
    if (err instanceof AnswerBoundError) throw new DownstreamError('graphql', err.reason, { status });
    // A 4xx/5xx whose body is not JSON (a proxy's error page) is still that status.
    if (!is2xx(status)) throw new GraphqlAnswerError(status, 0);
    throw new DownstreamError('graphql', 'answered malformed JSON', { cause: err, status });
  }
  const errors = answer?.errors;
  const errorCount = Array.isArray(errors) ? errors.length : 0;
  if (!is2xx(status) || errorCount > 0) throw new GraphqlAnswerError(status, errorCount);
  return answer?.data;
}

/**
 * One HTTP attempt of GraphQL over HTTP: a plain JSON POST of `{query, variables}` through the
 * pool's dispatcher, read whole within the answer ceiling (buffered-request.ts) and parsed within
 * the depth and member rules (json-answer.ts). A plain POST, not graphql-request: measured side by
 * side over loopback (one client each, the same pool settings), graphql-request with undici's
 * `fetch` cost about 230 µs of CPU per mutation, this about 40 µs (see CHANGELOG).
 * A failure before the request is handed to undici (a body that cannot be serialized) is the
 * service's own, an OutboundRequestError; undici's refusal of a header value is classified the
 * same way by call-failure.ts.
 */
export function graphqlAttempts(endpoint: GraphqlEndpoint): (call: GraphqlAttempt) => Promise<unknown> {
  const url = new URL(endpoint.url);
  const path = url.pathname + url.search;
  const fixed = { ...endpoint.headers, accept: 'application/graphql-response+json, application/json', 'content-type': 'application/json' };
  return async (call) => {
    let body: string;
    try {
      body = JSON.stringify({ query: call.document, variables: call.variables });
    } catch (err) {
      throw new OutboundRequestError('graphql', err);
    }
    let status: number | undefined;
    try {
      const answer = await requestBuffered(endpoint.dispatcher, {
        origin: url.origin,
        path,
        method: 'POST',
        headers: withTraceHeaders({ ...fixed, 'x-graphql-api-key': call.callerApiKey }),
        body,
        signal: call.signal,
        maxBytes: DEFAULT_MAX_ANSWER_BYTES,
        // GraphQL errors may come with a 4xx or 5xx too: every answer is read.
        wantsText: () => true,
        onStatus: (answered) => {
          status = answered;
          call.onStatus(answered);
        },
      });
      return dataOf(answer.statusCode, answer.text);
    } catch (err) {
      if (err instanceof AnswerBoundError) throw new DownstreamError('graphql', err.reason, status === undefined ? {} : { status });
      throw err;
    }
  };
}
