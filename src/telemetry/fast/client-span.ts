import { performance } from 'node:perf_hooks';
import { SpanKind, trace, type Attributes, type Link, type Span, type Tracer } from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVER_SERVICE_NAME,
  ATTR_URL_FULL,
  ATTR_URL_TEMPLATE,
} from '../attributes.ts';
import type { DownstreamMetrics } from '../metrics.ts';
import { recordSpan, type NamedSpanOptions } from './span.ts';

/** What a client needs to trace and measure its calls. Both parts are optional (tests, scripts). */
export interface OutboundTelemetry {
  readonly tracer?: Tracer;
  readonly metrics?: DownstreamMetrics;
}

/** No provider is registered globally (each app has its own), so this one records nothing. */
const untraced = trace.getTracer('chat-adapter');

interface TargetInfo {
  /** Scheme, host and port: no user info. */
  readonly origin: string;
  /** The base address's own path (e.g. `/graphql`), without a trailing slash. */
  readonly basePath: string;
  readonly address: string;
  readonly port: number;
}

const targets = new Map<string, TargetInfo>();

/** Parsed once per configured base address (a handful per process). */
function targetInfo(baseUrl: string): TargetInfo {
  let info = targets.get(baseUrl);
  if (info === undefined) {
    const url = new URL(baseUrl);
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    info = { origin: url.origin, basePath: url.pathname.replace(/\/+$/, ''), address: url.hostname, port };
    targets.set(baseUrl, info);
  }
  return info;
}

/** The path without its query string (which may carry ids or tokens). */
export function pathTemplate(path: string): string {
  const q = path.indexOf('?');
  return q === -1 ? path : path.slice(0, q);
}

export interface ClientCall {
  readonly party: string;
  readonly method: string;
  readonly baseUrl: string;
  /** Path after the base address, e.g. `/api/v1/units?propertyId=1` (the query string is dropped). */
  readonly path: string;
  /** Defaults to `{method} {url.template}` (HTTP semantic conventions). */
  readonly spanName?: string;
  readonly attributes?: Attributes;
  /** Spans this call is about but not part of (a handoff delivery: the chat that asked for it). */
  readonly links?: Link[];
}

/**
 * Runs `fn` in a CLIENT span named and described by the HTTP semantic conventions. The span is
 * active inside `fn`, so `withTraceHeaders` sends it as the downstream's parent. Only the base
 * address and the path template are recorded: never a query string, header or body.
 */
export function clientSpan<T>(telemetry: OutboundTelemetry | undefined, call: ClientCall, fn: (span: Span) => Promise<T>): Promise<T> {
  return recordSpan(telemetry?.tracer ?? untraced, () => describeCall(call), fn);
}

/** The span's name and attributes: built only when a span is made (not under an unsampled parent). */
function describeCall(call: ClientCall): NamedSpanOptions {
  const target = targetInfo(call.baseUrl);
  const template = target.basePath + pathTemplate(call.path) || '/';
  const attributes: Attributes = {
    [ATTR_HTTP_REQUEST_METHOD]: call.method,
    [ATTR_URL_FULL]: target.origin + template,
    [ATTR_URL_TEMPLATE]: template,
    [ATTR_SERVER_ADDRESS]: target.address,
    [ATTR_SERVER_PORT]: target.port,
    [ATTR_SERVER_SERVICE_NAME]: call.party,
    ...call.attributes,
  };
  return { name: call.spanName ?? `${call.method} ${template}`, kind: SpanKind.CLIENT, attributes, ...(call.links !== undefined && { links: call.links }) };
}

/** Starts timing one HTTP attempt; the returned function reports it to the downstream metrics. */
export function attemptTimer(telemetry: OutboundTelemetry | undefined, party: string): (failure: string | undefined) => void {
  const started = performance.now();
  return (failure) => telemetry?.metrics?.observeDownstream(party, (performance.now() - started) / 1000, failure);
}

/** `error.type` on a client span whose call failed (HTTP semantic conventions). */
export function setErrorType(span: Span, failure: string): void {
  span.setAttribute(ATTR_ERROR_TYPE, failure);
}
