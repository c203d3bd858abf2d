/**
 * Connection ceilings (docs/api.md#limits), as options of the Fastify factory: an idle keep-alive
 * connection is closed after `keepAliveTimeoutMs`; a request whose head or body has not fully
 * arrived within `receiveTimeoutMs` gets 408 and is closed; at most `maxConnections` are open at
 * once (more are dropped as they connect).
 *
 * Node's `requestTimeout` alone never closes a connection whose body trickles in; it does once
 * `headersTimeout` is no larger than it, so both are set. Node checks these timeouts only every
 * `connectionsCheckingInterval` (30 s by default, which would let a 30 s timeout run to 60 s):
 * checked here at least once a second.
 */
import { STATUS_CODES, type ServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyServerOptions } from 'fastify';
import { errorBody } from './error-replies.ts';

export interface ConnectionLimits {
  /** KEEP_ALIVE_TIMEOUT_MS: longer than the 60 s idle timeout of common load balancers. */
  readonly keepAliveTimeoutMs: number;
  /** Head and body must have arrived within this. */
  readonly receiveTimeoutMs: number;
  /** MAX_CONNECTIONS. */
  readonly maxConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { keepAliveTimeoutMs: 72_000, receiveTimeoutMs: 30_000, maxConnections: 10_000 };

/** What a connection refused before it became a request is told, in the detail shape (docs/api.md). */
function clientErrorStatus(code: string | undefined): number {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  return 400;
}

function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const status = clientErrorStatus(err.code);
    const reason = STATUS_CODES[status] ?? 'Bad Request';
    const body = JSON.stringify(errorBody(reason));
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

export interface ConnectionServerOptions {
  readonly keepAliveTimeout: number;
  readonly requestTimeout: number;
  readonly http: ServerOptions;
  readonly clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']>;
}

export function connectionServerOptions(limits: ConnectionLimits): ConnectionServerOptions {
  return {
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.receiveTimeoutMs,
    http: {
      headersTimeout: limits.receiveTimeoutMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1_000, Math.floor(limits.receiveTimeoutMs / 4))),
    },
    clientErrorHandler: answerClientError,
  };
}
