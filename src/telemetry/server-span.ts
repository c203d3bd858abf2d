import { ROOT_CONTEXT, SpanKind, SpanStatusCode, propagation, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
} from './attributes.ts';
import { pathTemplate } from './client-span.ts';

export interface IncomingRequest {
  readonly method: string;
  /** The matched route template (`/chat_adapter`, prefix included); undefined when no route matched. */
  readonly route: string | undefined;
  /** The request target as received; only its path is recorded, never the query string. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * Starts the request's SERVER span (HTTP semantic conventions). An incoming W3C `traceparent` is
 * continued: the span joins that trace, so the response's `trace_id` is the caller's.
 */
export function startServerSpan(tracer: Tracer, request: IncomingRequest): Span {
  const parent = propagation.extract(ROOT_CONTEXT, request.headers);
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: request.method,
    [ATTR_URL_PATH]: pathTemplate(request.url),
    [ATTR_URL_SCHEME]: 'http',
  };
  if (request.route !== undefined) attributes[ATTR_HTTP_ROUTE] = request.route;
  // `{method} {route}`; just `{method}` when nothing matched, so raw paths never become span names.
  const name = request.route === undefined ? request.method : `${request.method} ${request.route}`;
  return tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
}

/** Ends the SERVER span with the status; only a 5xx is a server-side error (4xx are the caller's). */
export function endServerSpan(span: Span, statusCode: number): void {
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, statusCode);
  if (statusCode >= 500) {
    span.setAttribute(ATTR_ERROR_TYPE, String(statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
