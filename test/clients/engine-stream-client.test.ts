/**
 * The engine client for a streaming chat, against a loopback engine stub: it asks with both media
 * types, takes a JSON or an event-stream answer, and treats an answer out of contract (too large,
 * malformed, unfinished, contradicting what it named first) as an unavailable engine.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from 'undici';
import { createEngineClient } from '../../src/clients/engine-client.ts';
import { createPartyPool } from '../../src/clients/party-pool.ts';
import { DownstreamError } from '../../src/errors.ts';
import type { EngineAnnouncement } from '../../src/pipeline/ports.ts';
import { engineReply } from '../helpers/fixtures.ts';
import { sendJson, startStub, type StubServer } from '../helpers/stub-server.ts';
import { validRequest } from '../steps/step-context.ts';

let stub: StubServer;
let pool: Pool;
beforeAll(async () => {
  stub = await startStub((_req, res) => sendJson(res, 200, engineReply()));
  pool = createPartyPool(stub.url);
});
afterAll(async () => {
  await pool.close();
  await stub.close();
});
afterEach(() => {
  stub.handle((_req, res) => sendJson(res, 200, engineReply()));
});

const client = () => createEngineClient({ party: 'engine', baseUrl: stub.url, timeoutMs: 2_000, dispatcher: pool });
const request = { ...validRequest(), language: 'en' as const };
const { response: _r, graphql_api_key: _k, ...rest } = { ...engineReply({ retrieval_type: 'rag' }), graphql_api_key: '' };
const doneEvent = { done: true, ...rest };

function events(...list: unknown[]): string {
  return list.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
}

function streams(body: string): void {
  stub.handle((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(body);
  });
}

async function ask(): Promise<{ reply: Awaited<ReturnType<ReturnType<typeof client>['query']>>; texts: [string, EngineAnnouncement | undefined][] }> {
  const texts: [string, EngineAnnouncement | undefined][] = [];
  const reply = await client().query(request, undefined, (delta, named) => texts.push([delta, named]));
  return { reply, texts };
}

describe('engine client, streaming', () => {
  it('asks for an event stream or JSON only when the chat streams', async () => {
    await client().query(request);
    expect(stub.requests.at(-1)!.headers['accept']).toBe('application/json');
    const { reply, texts } = await ask();
    expect(stub.requests.at(-1)!.headers['accept']).toBe('text/event-stream, application/json');
    expect(reply.response).toBe(engineReply().response);
    expect(texts).toEqual([]);
  });

  it('joins the deltas into the answer and passes each on with what the engine named first', async () => {
    streams(`${events({ retrieval_type: 'rag', language: 'en', delta: 'Hello ' })}: a comment is ignored\n\nevent: x\n${events({ delta: 'there.' }, doneEvent)}`);
    const { reply, texts } = await ask();
    expect(reply.response).toBe('Hello there.');
    expect(reply.retrieval_type).toBe('rag');
    expect(texts).toEqual([
      ['Hello ', { retrieval_type: 'rag', language: 'en' }],
      ['there.', { retrieval_type: 'rag', language: 'en' }],
    ]);
  });

  it('reads events split anywhere, CRLF line ends and multi-byte characters included', async () => {
    const body = events({ delta: 'Café ' }, { delta: 'ñandú 😀.' }, doneEvent).replaceAll('\n', '\r\n');
    stub.handle(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const bytes = Buffer.from(body);
      for (let i = 0; i < bytes.length; i += 3) {
        res.write(bytes.subarray(i, i + 3));
        await new Promise((r) => setImmediate(r));
      }
      res.end();
    });
    const { reply, texts } = await ask();
    expect(reply.response).toBe('Café ñandú 😀.');
    expect(texts.map(([, named]) => named)).toEqual([undefined, undefined]);
  });

  const outOfContract: [string, () => void][] = [
    ['an answer over 256 KiB', () => streams(events(...Array.from({ length: 300 }, () => ({ delta: 'x'.repeat(1024) })), doneEvent))],
    ['an event that is not JSON', () => streams(events('{"delta": ', doneEvent))],
    ['an event with neither delta nor done', () => streams(events({ text: 'hi' }, doneEvent))],
    ['a stream that ends before done', () => streams(events({ delta: 'Hello.' }))],
    ['a done event missing a member', () => streams(events({ delta: 'Hi.' }, { done: true, intent: 'x' }))],
    ['a done event contradicting the type named first', () => streams(events({ retrieval_type: 'rag', delta: 'Hi.' }, { ...doneEvent, retrieval_type: 'node' }))],
    ['a JSON answer over 256 KiB', () => stub.handle((_req, res) => sendJson(res, 200, engineReply({ response: 'y'.repeat(300 * 1024) })))],
  ];
  for (const [name, setUp] of outOfContract) {
    it(`treats ${name} as an unavailable engine`, async () => {
      setUp();
      const failure = await ask().catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(DownstreamError);
      expect((failure as DownstreamError).party).toBe('engine');
    });
  }

  it('times out a stream that stalls, as any engine call', async () => {
    stub.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(events({ delta: 'Hello ' }));
    });
    const started = performance.now();
    const failure = await client()
      .query(request, performance.now() + 300, () => {})
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DownstreamError);
    expect((failure as DownstreamError).reason).toMatch(/timed out/);
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
