/**
 * CLIENT spans of a chat's Redis calls (its scripts: chatBegin, chatEnd, turnPoll, turnRenew,
 * countWindow, idempotencyClaim, idempotencyComplete, idempotencyRelease), named and described by the
 * OpenTelemetry database conventions for Redis (1.45): `EVALSHA chatBegin`, `db.system.name`
 * `redis`, `db.operation.name` (the command), `db.stored_procedure.name` (the script),
 * `server.address` and `server.port` (the address the configuration names), and on a single node or
 * a Sentinel-found primary `network.peer.address` and `network.peer.port` (the node that answered).
 * Never a key, an argument or a reply: keys hold session names and Idempotency-Keys, arguments hold
 * the visitor's messages. A failed call gets `error.type` (and `db.response.status_code` when Redis
 * answered with an error): the error's prefix (`NOSCRIPT`, `ERR`, ...), `timeout` for the command
 * timeout, the error's name otherwise; never its message.
 *
 * Cheap by construction: a span is made only under a sampled span of this process whose tracer has a
 * span processor (tracing on, an exporter or a test's processor); otherwise the call costs a context
 * lookup. The span is a TimedSpan (timed-span.ts) handed straight to the processors, and it is not
 * made active (nothing below a Redis call is traced). It may end after the chat's own span: a
 * kept answer retried after an outage, a turn left as the response goes out.
 */
import { SpanKind, SpanStatusCode, TraceFlags, context, isSpanContextValid, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import {
  ATTR_DB_OPERATION_BATCH_SIZE,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_RESPONSE_STATUS_CODE,
  ATTR_DB_STORED_PROCEDURE_NAME,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_NETWORK_PEER_PORT,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
} from '../attributes.ts';
import { isCommandTimeout } from '../../shared-state/command-timeout.ts';
import { spanNow } from './span-clock.ts';
import { TimedSpan } from './timed-span.ts';
import { spanSinkOf } from '../tracing.ts';

/** The Redis server as the configuration names it (REDIS_URL's host, the first Sentinel or Cluster node). */
export interface RedisServerAddress {
  readonly address: string;
  readonly port: number;
}

/** What a Redis call is, for its span: `operation` is the command sent (EVALSHA, or PIPELINE for a script and its WAIT). */
export interface RedisCallName {
  readonly operation: string;
  readonly script: string;
  /** Commands sent together (a pipeline): two or more. */
  readonly batchSize?: number;
}

/** The connection's peer, when the client has one socket (a single node, a Sentinel-found primary). */
export type RedisPeer = () => { readonly address?: string | undefined; readonly port?: number | undefined } | undefined;

export interface RedisSpanTarget {
  readonly tracer: Tracer;
  readonly server?: RedisServerAddress | undefined;
  readonly peer?: RedisPeer | undefined;
}

/**
 * A started span for one Redis call, or undefined when none is to be made: no recording tracer, no
 * active span of a chat, or one that is not sampled.
 */
export function startRedisSpan(target: RedisSpanTarget | undefined, call: RedisCallName): Span | undefined {
  if (target === undefined) return undefined;
  const sink = spanSinkOf(target.tracer);
  if (sink !== undefined && !sink.recording) return undefined;
  const parent = trace.getSpan(context.active());
  if (parent === undefined) return undefined;
  const ids = parent.spanContext();
  if ((ids.traceFlags & TraceFlags.SAMPLED) === 0 || !isSpanContextValid(ids)) return undefined;
  const name = `${call.operation} ${call.script}`;
  const attributes = redisAttributes(target, call);
  if (sink === undefined) return target.tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes, startTime: spanNow() });
  const span = new TimedSpan(sink, name, ids, spanNow(), SpanKind.CLIENT);
  span.setAttributes(attributes);
  return span;
}

function redisAttributes(target: RedisSpanTarget, call: RedisCallName): Attributes {
  const attributes: Attributes = {
    [ATTR_DB_SYSTEM_NAME]: 'redis',
    [ATTR_DB_OPERATION_NAME]: call.operation,
    [ATTR_DB_STORED_PROCEDURE_NAME]: call.script,
  };
  if (call.batchSize !== undefined) attributes[ATTR_DB_OPERATION_BATCH_SIZE] = call.batchSize;
  if (target.server !== undefined) {
    attributes[ATTR_SERVER_ADDRESS] = target.server.address;
    attributes[ATTR_SERVER_PORT] = target.server.port;
  }
  const peer = target.peer?.();
  if (peer?.address !== undefined) {
    attributes[ATTR_NETWORK_PEER_ADDRESS] = peer.address;
    if (peer.port !== undefined) attributes[ATTR_NETWORK_PEER_PORT] = peer.port;
  }
  return attributes;
}

/** A Redis error reply starts with its code in capitals (`NOSCRIPT No matching script`, `ERR ...`). */
const REPLY_PREFIX = /^([A-Z][A-Z_]{1,31})(?= )/;

/** Ends the span of a call; `err` when it failed (only its class is kept, never its message). */
export function endRedisSpan(span: Span | undefined, err?: unknown): void {
  if (span === undefined) return;
  if (err !== undefined) {
    const error = err instanceof Error ? err : undefined;
    const prefix = error?.name === 'ReplyError' ? REPLY_PREFIX.exec(error.message)?.[1] : undefined;
    const type = prefix ?? (error === undefined ? '_OTHER' : isCommandTimeout(error) ? 'timeout' : error.name);
    if (prefix !== undefined) span.setAttribute(ATTR_DB_RESPONSE_STATUS_CODE, prefix);
    span.setAttribute(ATTR_ERROR_TYPE, type);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end(spanNow());
}
