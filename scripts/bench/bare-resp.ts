/**
 * The floor a Redis script call can cost in Node, for `npm run bench:clients`: the command written
 * as RESP on a plain socket and its reply only delimited, not decoded, so that what the service's
 * client (ioredis) adds per call can be read against it, as bare undici is for the HTTP clients.
 * Replies come back in the order the commands were written (one connection, no pub/sub).
 */
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';

/** One RESP array of bulk strings, as every Redis client writes a command. */
export function encodeCommand(parts: readonly (string | number)[]): string {
  let out = `*${parts.length}\r\n`;
  for (const part of parts) {
    const text = String(part);
    out += `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
  }
  return out;
}

/** Where the reply starting at `at` ends, or -1 when it has not all arrived yet. */
export function replyEnd(buf: Buffer, at: number): number {
  if (at >= buf.length) return -1;
  const lineEnd = buf.indexOf('\r\n', at);
  if (lineEnd === -1) return -1;
  const type = buf[at];
  if (type === 0x2b /* + */ || type === 0x2d /* - */ || type === 0x3a /* : */) return lineEnd + 2;
  const count = Number(buf.toString('latin1', at + 1, lineEnd));
  if (type === 0x24 /* $ */) {
    if (count < 0) return lineEnd + 2;
    const end = lineEnd + 2 + count + 2;
    return end <= buf.length ? end : -1;
  }
  if (type === 0x2a /* * */) {
    let next = lineEnd + 2;
    for (let i = 0; i < count; i++) {
      next = replyEnd(buf, next);
      if (next === -1) return -1;
    }
    return next;
  }
  throw new Error(`unexpected RESP type byte ${type}`);
}

export interface BareRedis {
  /** EVALSHA of a loaded script; settles with the reply's first byte (`-` for an error). */
  evalsha(sha: string, keys: readonly string[], args: readonly (string | number)[]): Promise<string>;
  close(): void;
}

export async function bareRedis(port: number): Promise<BareRedis> {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  await once(socket, 'connect');
  const waiting: Array<(firstByte: string) => void> = [];
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let at = 0;
    for (let end = replyEnd(pending, at); end !== -1; end = replyEnd(pending, at)) {
      waiting.shift()?.(String.fromCharCode(pending[at]!));
      at = end;
    }
    pending = pending.subarray(at);
  });
  return {
    evalsha(sha, keys, args) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        socket.write(encodeCommand(['EVALSHA', sha, keys.length, ...keys, ...args]));
      });
    },
    close: () => socket.destroy(),
  };
}
