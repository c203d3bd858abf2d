/**
 * Both ends of a streamed chat for tests: an engine stub that streams its reply over a real socket
 * (recording when it wrote each event), and a reader of the service's UI message stream that
 * records when each part arrived.
 */
import { request as httpRequest } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EngineReply } from '../../schemas/engine.schema.ts';

/** Opens the app on a free loopback port (streams need a real socket, not inject) and gives its base URL. */
export async function listenOnLoopback(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export interface EngineScript {
  /** The reply text, as deltas. */
  readonly deltas: readonly string[];
  /** The members of the done event (all of the 3.1 answer but `response`). */
  readonly done: Omit<EngineReply, 'response'>;
  /** Ms between deltas. */
  readonly gapMs: number;
  /** Name the retrieval type on the first event (default true). */
  readonly announce?: boolean;
  /** Drop the connection after this many deltas instead of finishing. */
  readonly failAfter?: number;
}

export interface EngineWrites {
  /** `performance.now()` when each delta was written. */
  readonly deltaAt: number[];
  doneAt: number | undefined;
}

/** Streams `script` as the engine's event stream; fills `writes` as it goes. */
export async function streamEngineReply(res: ServerResponse, script: EngineScript, writes: EngineWrites): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (event: object) => res.write(`data: ${JSON.stringify(event)}\n\n`);
  for (let i = 0; i < script.deltas.length; i++) {
    if (i > 0) await sleep(script.gapMs);
    if (script.failAfter !== undefined && i === script.failAfter) {
      res.destroy();
      return;
    }
    const first = i === 0 && script.announce !== false ? { retrieval_type: script.done.retrieval_type } : {};
    send({ ...first, delta: script.deltas[i] });
    writes.deltaAt.push(performance.now());
  }
  await sleep(script.gapMs);
  send({ done: true, ...script.done });
  writes.doneAt = performance.now();
  res.end();
}

export interface ArrivedPart {
  readonly part: Record<string, unknown>;
  /** `performance.now()` when its bytes arrived. */
  readonly at: number;
}

export interface StreamedAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly parts: ArrivedPart[];
  /** The raw text of the body. */
  readonly text: string;
  readonly done: boolean;
}

/** Parses the `data:` events of a UI message stream (also a partial one). */
export function eventsOf(text: string): { parts: Record<string, unknown>[]; done: boolean } {
  const parts: Record<string, unknown>[] = [];
  let done = false;
  for (const block of text.split('\n\n')) {
    // A part's event is `id: <n>` then `data: <JSON>`; `[DONE]` has no id.
    const line = block.split('\n').find((l) => l.startsWith('data: '));
    if (line === undefined) continue;
    const data = line.slice(6);
    if (data === '[DONE]') done = true;
    else parts.push(JSON.parse(data) as Record<string, unknown>);
  }
  return { parts, done };
}

export interface PostOptions {
  readonly headers?: Record<string, string>;
  /** Called with each part as it arrives; return true to drop the connection there. */
  readonly onPart?: (part: Record<string, unknown>) => boolean | void;
}

/** POSTs a chat over a real connection and reads its answer as it arrives. */
export function postChat(baseUrl: string, body: unknown, options: PostOptions = {}): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}/chat_adapter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...options.headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      let consumed = 0;
      const parts: ArrivedPart[] = [];
      let dropped = false;
      const finish = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, parts, text, done: eventsOf(text).done });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        text += chunk;
        const end = text.lastIndexOf('\n\n');
        if (end < consumed) return;
        for (const part of eventsOf(text.slice(consumed, end + 2)).parts) {
          parts.push({ part, at });
          if (!dropped && options.onPart?.(part) === true) {
            dropped = true;
            req.destroy();
            finish();
          }
        }
        consumed = end + 2;
      });
      res.on('end', () => {
        if (!dropped) finish();
      });
      res.on('error', () => {
        if (!dropped) finish();
      });
    });
    req.end(JSON.stringify(body));
  });
}

export const partsOfType = (answer: StreamedAnswer, type: string) => answer.parts.filter((p) => p.part['type'] === type);
export const textOf = (answer: StreamedAnswer) =>
  partsOfType(answer, 'text-delta')
    .map((p) => p.part['delta'] as string)
    .join('');

/** The SSE ids of a stream's parts, in order (`[DONE]` and parts without an id are left out). */
export function idsOf(text: string): number[] {
  return text
    .split('\n\n')
    .map((block) => block.split('\n').find((line) => line.startsWith('id: ')))
    .filter((line) => line !== undefined)
    .map((line) => Number(line.slice(4)));
}

/** `GET {base}{path}` read as it arrives (a resumed stream), like postChat; onPart may drop the connection. */
export function getStream(baseUrl: string, path: string, options: PostOptions = {}): Promise<StreamedAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { method: 'GET', headers: { ...options.headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      let consumed = 0;
      const parts: ArrivedPart[] = [];
      let dropped = false;
      const finish = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, parts, text, done: eventsOf(text).done });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        const at = performance.now();
        text += chunk;
        const end = text.lastIndexOf('\n\n');
        if (end < consumed) return;
        for (const part of eventsOf(text.slice(consumed, end + 2)).parts) {
          parts.push({ part, at });
          if (!dropped && options.onPart?.(part) === true) {
            dropped = true;
            req.destroy();
            finish();
          }
        }
        consumed = end + 2;
      });
      res.on('end', () => {
        if (!dropped) finish();
      });
      res.on('error', () => {
        if (!dropped) finish();
      });
    });
    req.end();
  });
}
