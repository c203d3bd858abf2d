/**
 * `POST {ENGINE_URL}/query` for a caller that streams (docs/api.md#streamed-replies): asked with
 * `Accept: text/event-stream, application/json`, the engine may answer either way. The same exchange
 * as every other call (http-json.ts: timeouts, deadline, CLIENT span, attempt metrics), and its own
 * ceiling: at most 256 KiB of answer, JSON or events (docs/api.md#limits).
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import type { EngineReply, EngineReplySchema, EngineRequest } from '../../schemas/engine.schema.ts';
import { DownstreamError } from '../errors.ts';
import type { EngineTextListener } from '../pipeline/ports.ts';
import { ATTR_GEN_AI_REQUEST_STREAM, ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK } from '../telemetry/attributes.ts';
import { GEN_AI_SPAN_NAME, genAiAttributes } from '../telemetry/gen-ai-span.ts';
import { EngineEvents } from './engine-events.ts';
import { exchange, readCheckedJson, type HttpParty } from './http-json.ts';
import { SseLines } from './sse-lines.ts';

export const ENGINE_ANSWER_MAX_BYTES = 256 * 1024;
const STREAM_ACCEPT = 'text/event-stream, application/json';
const isOk = (status: number) => status === 200;

function tooLarge(): DownstreamError {
  return new DownstreamError('engine', `answer over ${ENGINE_ANSWER_MAX_BYTES} bytes`);
}

/** An event stream's chunks, decoded, with the byte ceiling checked as they arrive (a JSON answer: readBoundedText). */
async function* boundedText(body: Dispatcher.ResponseData['body']): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let bytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    bytes += chunk.byteLength;
    if (bytes > ENGINE_ANSWER_MAX_BYTES) {
      body.destroy();
      throw tooLarge();
    }
    yield decoder.decode(chunk, { stream: true });
  }
  yield decoder.decode();
}

async function readEvents(body: Dispatcher.ResponseData['body'], events: EngineEvents): Promise<EngineReply> {
  const lines = new SseLines(ENGINE_ANSWER_MAX_BYTES, tooLarge);
  const take = (data: string) => events.take(data, performance.now());
  for await (const part of boundedText(body)) {
    lines.push(part, take);
    if (events.done !== undefined) {
      // Nothing after the final event matters; the connection is not reused for it.
      body.destroy();
      return events.done;
    }
  }
  throw new DownstreamError('engine', 'event stream ended before its done event');
}

/** The JSON or streamed answer of the engine; `onText` sees streamed text as it arrives. */
export async function streamEngineQuery(
  target: HttpParty,
  reply: TypeCheck<typeof EngineReplySchema>,
  request: EngineRequest,
  deadlineAt: number | undefined,
  onText: EngineTextListener,
  stop?: AbortSignal,
): Promise<EngineReply> {
  const startedAt = performance.now();
  let firstEventAt: number | undefined;
  let events: EngineEvents | undefined;
  try {
    return await exchange(target, {
      method: 'POST',
      path: '/query',
      body: request,
      headers: { accept: STREAM_ACCEPT, 'content-type': 'application/json' },
      deadlineAt,
      isOk,
      stop,
      spanName: GEN_AI_SPAN_NAME,
      attributes: { ...genAiAttributes(request.conversation_id), [ATTR_GEN_AI_REQUEST_STREAM]: true },
      async read(res, span) {
        const type = String(res.headers['content-type'] ?? '');
        if (!type.startsWith('text/event-stream')) {
          const json = await readCheckedJson(target.party, res, reply, ENGINE_ANSWER_MAX_BYTES);
          firstEventAt = performance.now();
          return json;
        }
        events = new EngineEvents(reply, onText);
        const answer = await readEvents(res.body, events);
        // A stream with no text before its done event began with that event.
        firstEventAt = events.firstTextAt ?? performance.now();
        if (events.firstTextAt !== undefined) {
          span.setAttribute(ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK, (events.firstTextAt - startedAt) / 1000);
        }
        return answer;
      },
    });
  } finally {
    // A streamed answer's length is the text's pace, not the engine's latency: measured to its first event.
    // A stream that broke after its first text began then; a call that failed first, when it failed.
    const at = firstEventAt ?? events?.firstTextAt ?? performance.now();
    target.telemetry?.metrics?.observeEngineFirstEvent?.((at - startedAt) / 1000);
  }
}
