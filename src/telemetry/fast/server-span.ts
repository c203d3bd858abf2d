import { randomUUID } from 'node:crypto';
import {
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  isSpanContextValid,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { SamplingDecision, type Sampler } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
} from '../attributes.ts';
import { pathTemplate } from './client-span.ts';
import { spanNow, spanTime } from './span-clock.ts';
import { newSpanId, newTraceId } from './timed-span.ts';
import { spanSinkOf } from '../tracing.ts';

export interface IncomingRequest {
  readonly method: string;
  /** The matched route template (`/chat_adapter`, prefix included); undefined when no route matched. */
  readonly route: string | undefined;
  /** The request target as received; only its path is recorded, never the query string. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The connection's peer (a load balancer's address behind one: forwarding headers are not trusted). */
  readonly clientAddress?: string | undefined;
  /** `1.1`, `2`. */
  readonly protocolVersion?: string | undefined;
}

/** A User-Agent is the caller's text: kept, but bounded. */
const MAX_USER_AGENT_CHARS = 256;

/** The HTTP server span's attributes (semantic conventions 1.45) that the request itself gives. */
function requestAttributes(request: IncomingRequest): Attributes {
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: request.method,
    [ATTR_URL_PATH]: pathTemplate(request.url),
    [ATTR_URL_SCHEME]: 'http',
  };
  if (request.route !== undefined) attributes[ATTR_HTTP_ROUTE] = request.route;
  if (request.clientAddress !== undefined) attributes[ATTR_CLIENT_ADDRESS] = request.clientAddress;
  if (request.protocolVersion !== undefined) attributes[ATTR_NETWORK_PROTOCOL_VERSION] = request.protocolVersion;
  const agent = request.headers['user-agent'];
  if (typeof agent === 'string' && agent !== '') attributes[ATTR_USER_AGENT_ORIGINAL] = agent.slice(0, MAX_USER_AGENT_CHARS);
  return attributes;
}

/**
 * Starts the request's SERVER span (HTTP semantic conventions). An incoming W3C `traceparent` is
 * continued: the span joins that trace, so the response's `trace_id` is the caller's.
 */
export function startServerSpan(tracer: Tracer, request: IncomingRequest): Span {
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const attributes = requestAttributes(request);
  // `{method} {route}`; just `{method}` when nothing matched, so raw paths never become span names.
  const name = request.route === undefined ? request.method : `${request.method} ${request.route}`;
  const sink = spanSinkOf(tracer);
  if (sink !== undefined && !sink.recording) return idsOnlySpan(sink.sampler, parent, name, attributes);
  return tracer.startSpan(name, { kind: SpanKind.SERVER, attributes, startTime: spanNow() }, parent);
}

/**
 * The SERVER span when no processor would receive it: a span that records nothing, with the ids
 * and the sampling flag the SDK would give it (the caller's trace continued, the sampler's
 * decision), so that the response's `trace_id` and every `traceparent` sent on are the same as
 * with an exporter. No step or CLIENT span is made under it.
 */
function idsOnlySpan(sampler: Sampler, parent: Context, name: string, attributes: Attributes): Span {
  const parentIds = trace.getSpanContext(parent);
  const continued = parentIds !== undefined && isSpanContextValid(parentIds);
  const traceId = continued ? parentIds.traceId : newTraceId();
  const { decision } = sampler.shouldSample(parent, traceId, name, SpanKind.SERVER, attributes, []);
  return trace.wrapSpanContext({
    traceId,
    spanId: newSpanId(),
    traceFlags: decision === SamplingDecision.RECORD_AND_SAMPLED ? TraceFlags.SAMPLED : TraceFlags.NONE,
    ...(continued && parentIds.traceState !== undefined && { traceState: parentIds.traceState }),
  });
}

/**
 * Ends the SERVER span with the status; only a 5xx is a server-side error (4xx are the caller's).
 * `outcomeStatus` is the answer's outcome when it differs from the HTTP status: a streamed chat
 * answers 200 from its first byte, and one that then failed is the error a JSON caller would get.
 */
export function endServerSpan(span: Span, statusCode: number, endedAt: number, outcomeStatus = statusCode): void {
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, statusCode);
  if (outcomeStatus >= 500) {
    span.setAttribute(ATTR_ERROR_TYPE, String(outcomeStatus));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end(spanTime(endedAt));
}

/** The raw (node) request as Fastify's `genReqId` gets it. */
export interface RawRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly httpVersion?: string | undefined;
  readonly socket?: { readonly remoteAddress?: string | undefined } | undefined;
}

const SERVER_SPAN = Symbol('chat-adapter.serverSpan');
type CarryingSpan = RawRequest & { [SERVER_SPAN]?: Span };

/** The span of a request that makes no trace: records nothing, ending it does nothing. */
export const UNTRACED_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Fastify's `genReqId` for traced requests: starts the request's SERVER span (named by method
 * until the route is known: see `nameServerSpan`) and makes its trace id the request id, so that
 * Fastify's own per-request logger carries it: one id per request, in logs, spans and the response.
 */
export function tracedRequestIds(tracer: Tracer): (raw: RawRequest) => string {
  return (raw) => {
    const span = startServerSpan(tracer, {
      method: raw.method ?? 'GET',
      route: undefined,
      url: raw.url ?? '/',
      headers: raw.headers,
      clientAddress: raw.socket?.remoteAddress,
      protocolVersion: raw.httpVersion,
    });
    (raw as CarryingSpan)[SERVER_SPAN] = span;
    return span.spanContext().traceId;
  };
}

/** `genReqId` for requests that make no trace (`/heartbeat`, `/metrics`): a random id of the trace id's shape. */
export function untracedRequestId(): string {
  return randomUUID().replaceAll('-', '');
}

/** The SERVER span `tracedRequestIds` started for this raw request, or UNTRACED_SPAN. */
export function serverSpanOf(raw: RawRequest): Span {
  return (raw as CarryingSpan)[SERVER_SPAN] ?? UNTRACED_SPAN;
}

/** Once the route is known: the span is named `{method} {route}` and gets `http.route`. */
export function nameServerSpan(span: Span, method: string, route: string | undefined): void {
  if (route === undefined) return;
  span.updateName(`${method} ${route}`);
  span.setAttribute(ATTR_HTTP_ROUTE, route);
}
