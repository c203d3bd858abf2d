import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Pool } from 'undici';
import { requestBuffered, type BufferedRequest } from '../../src/clients/buffered-request.ts';
import { startCallTimer } from '../../src/clients/call-timer.ts';
import { failureReason, is2xx } from '../../src/clients/call-failure.ts';
import { AnswerBoundError } from '../../src/clients/json-answer.ts';

/*
 * requestBuffered against a real HTTP server over loopback, through a real undici pool: the same
 * answers and the same errors as `request` followed by reading the body within its ceiling.
 */

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let server: Server;
let origin: string;
let handler: Handler = (_req, res) => res.end();
/** Paths the server was asked for, in order. */
const seen: string[] = [];
/** Whether each answer's connection closed before the answer was complete (the reader hung up). */
const cutShort: boolean[] = [];
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.on('close', () => cutShort.push(!res.writableFinished));
    req.resume();
    req.on('end', () => handler(req, res));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

const pools: Pool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.destroy()));
  seen.length = 0;
  cutShort.length = 0;
});

function pool(connections = 4): Pool {
  const created = new Pool(origin, { connections });
  pools.push(created);
  return created;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function ask(dispatcher: Pool, over: Partial<BufferedRequest> = {}): ReturnType<typeof requestBuffered> {
  return requestBuffered(dispatcher, {
    origin,
    path: '/answer',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"q":1}',
    maxBytes: 64,
    wantsText: () => true,
    ...over,
  });
}

/** Writes `text` in pieces of the given sizes (the rest in one), without announcing its length. */
function writeInPieces(res: ServerResponse, text: string, sizes: readonly number[], status = 200): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  for (const size of sizes) {
    if (at >= bytes.length) break;
    res.write(bytes.subarray(at, at + size));
    at += size;
  }
  res.end(bytes.subarray(at));
}

describe('requestBuffered: an answer read whole within its ceiling', () => {
  it('answers the status, the headers and the text, and tells the status before the text', async () => {
    handler = (_req, res) => res.writeHead(201, { 'content-type': 'application/json', 'x-trace': 'abc' }).end('{"ok":true}');
    const statuses: number[] = [];
    const answer = await ask(pool(), { onStatus: (status) => statuses.push(status) });
    expect(answer.statusCode).toBe(201);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['x-trace']).toBe('abc');
    expect(answer.text).toBe('{"ok":true}');
    expect(statuses).toEqual([201]);
  });

  it('is any text within the ceiling however it is cut into chunks, and an AnswerBoundError over it', async () => {
    const dispatcher = pool();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 12 }), async (text, sizes) => {
        handler = (_req, res) => writeInPieces(res, text, sizes);
        const bytes = Buffer.byteLength(text, 'utf8');
        const outcome = await ask(dispatcher).then(
          (answer) => answer.text,
          (err: unknown) => err,
        );
        if (bytes <= 64) expect(outcome).toBe(text);
        else expect(outcome).toBeInstanceOf(AnswerBoundError);
      }),
      { numRuns: 60 },
    );
  });

  it('refuses an answer announced over the ceiling without reading it', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-length': '100000' }).write('x'.repeat(10));
    await expect(ask(pool())).rejects.toBeInstanceOf(AnswerBoundError);
    await wait(50);
    expect(cutShort).toEqual([true]);
  });

  it('stops reading an unannounced answer as soon as it goes over the ceiling', async () => {
    let written = 0;
    handler = (_req, res) => {
      res.writeHead(200);
      const pump = () => {
        while (written < 8 * 1024 * 1024 && !res.destroyed) {
          written += 4096;
          if (!res.write('y'.repeat(4096))) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    };
    await expect(ask(pool(), { maxBytes: 10_000 })).rejects.toBeInstanceOf(AnswerBoundError);
    await wait(50);
    expect(cutShort).toEqual([true]);
    expect(written).toBeLessThan(4 * 1024 * 1024);
  });

  it('discards the answer of an unwanted status, and still tells the status when that answer is over the ceiling', async () => {
    handler = (_req, res) => res.writeHead(503).end('busy, try later');
    const small = await ask(pool(), { wantsText: (status) => status === 200 });
    expect(small).toMatchObject({ statusCode: 503, text: '' });

    handler = (_req, res) => res.writeHead(500).end('e'.repeat(5000));
    const large = await ask(pool(), { wantsText: (status) => status === 200 });
    expect(large).toMatchObject({ statusCode: 500, text: '' });
  });
});

describe('requestBuffered: failures, as request() gives them', () => {
  it('a timeout before the answer rejects with the timer\'s TimeoutError, classified as a timeout', async () => {
    handler = () => undefined; // never answers
    const timer = startCallTimer({ ms: 50, byDeadline: false });
    const err = await ask(pool(), { signal: timer.signal }).catch((e: unknown) => e);
    timer.clear();
    expect((err as Error).name).toBe('TimeoutError');
    expect(failureReason(err, undefined, is2xx)).toBe('timeout');
  });

  it('a timeout in the middle of the answer rejects the same way, after the status was told', async () => {
    handler = (_req, res) => res.writeHead(200, { 'content-length': '40' }).write('only half of it');
    const timer = startCallTimer({ ms: 80, byDeadline: false });
    let status: number | undefined;
    const err = await ask(pool(), { signal: timer.signal, onStatus: (s) => (status = s) }).catch((e: unknown) => e);
    timer.clear();
    expect(status).toBe(200);
    expect((err as Error).name).toBe('TimeoutError');
    expect(failureReason(err, status, is2xx)).toBe('timeout');
  });

  it('a timeout while waiting for a busy pool\'s connection: never sent once it gets one', async () => {
    handler = (req, res) => setTimeout(() => res.end('late'), req.url === '/slow' ? 200 : 0);
    const dispatcher = pool(1);
    const slow = ask(dispatcher, { path: '/slow' });
    const timer = startCallTimer({ ms: 30, byDeadline: false });
    const err = await ask(dispatcher, { path: '/queued', signal: timer.signal }).catch((e: unknown) => e);
    timer.clear();
    expect((err as Error).name).toBe('TimeoutError');
    expect((await slow).text).toBe('late');
    expect(seen).toEqual(['/slow']);
  });

  it('a connection reset in the middle of the answer is undici\'s socket error, classified as unreachable', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'content-length': '100' }).write('partial');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    let status: number | undefined;
    const err = await ask(pool(), { maxBytes: 1000, onStatus: (s) => (status = s) }).catch((e: unknown) => e);
    expect(status).toBe(200);
    expect(err).not.toBeInstanceOf(AnswerBoundError);
    expect((err as { code?: string }).code).toBe('UND_ERR_SOCKET');
    expect(failureReason(err, status, is2xx)).toBe('unreachable');
  });

  it('a header value undici cannot send is refused before sending, as the service\'s own error', async () => {
    const err = await ask(pool(), { headers: { 'x-bad': 'line\r\nbreak' } }).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('UND_ERR_INVALID_ARG');
    expect(failureReason(err, undefined, is2xx)).toBe('request_error');
    expect(seen).toEqual([]);
  });

  it('takes an AbortSignal too: its timeout rejects the same way, and one already aborted sends nothing', async () => {
    handler = () => undefined; // never answers
    const timedOut = await ask(pool(), { signal: AbortSignal.timeout(50) }).catch((e: unknown) => e);
    expect((timedOut as Error).name).toBe('TimeoutError');
    expect(seen).toEqual(['/answer']);

    const aborted = AbortSignal.abort(new DOMException('gone', 'AbortError'));
    const refused = await ask(pool(), { path: '/never', signal: aborted }).catch((e: unknown) => e);
    expect((refused as Error).name).toBe('AbortError');
    await wait(20);
    expect(seen).toEqual(['/answer']);
  });

  it('leaves no listener on the call\'s signal once settled', async () => {
    handler = (_req, res) => res.end('done');
    let listening = 0;
    const signal = {
      reason: undefined,
      on: () => listening++,
      removeListener: () => listening--,
    };
    await ask(pool(), { signal: signal as unknown as BufferedRequest['signal'] });
    expect(listening).toBe(0);
  });
});
