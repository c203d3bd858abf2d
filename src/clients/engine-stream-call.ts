/**
 * `POST {ENGINE_URL}/query` for a caller that streams (docs/api.md#streamed-replies): asked with
 * `Accept: text/event-stream, application/json`, the engine may answer either way. Same timeouts,
 * deadline, CLIENT span and attempt metrics as every other call (http-json.ts), and its own
 * ceiling: at most 256 KiB of answer, JSON or events (docs/api.md#limits).
 */
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import type { EngineReply, EngineReplySchema, EngineRequest } from '../../schemas/engine.schema.ts';
import { DownstreamError, OutboundRequestError } from '../errors.ts';
import type { EngineTextListener } from '../pipeline/ports.ts';
import { ATTR_GEN_AI_REQUEST_STREAM, ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK, ATTR_HTTP_RESPONSE_STATUS_CODE } from '../telemetry/attributes.ts';
import { attemptTimer, clientSpan, setErrorType } from '../telemetry/client-span.ts';
import { withTraceHeaders } from '../telemetry/outbound.ts';
import { callError, failureReason } from './call-failure.ts';
import { callLimit, startCallTimer } from './call-timer.ts';
import { EngineEvents } from './engine-events.ts';
import type { HttpParty } from './http-json.ts';
import { partyAddress } from './party-pool.ts';
import { SseLines } from './sse-lines.ts';
import { AnswerBoundError, parseBoundedJson, readBoundedText } from './json-answer.ts';

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

async function readJson(res: Dispatcher.ResponseData, reply: TypeCheck<typeof EngineReplySchema>): Promise<EngineReply> {
  let json: unknown;
  try {
    json = parseBoundedJson(await readBoundedText(res.body, res.headers['content-length'], ENGINE_ANSWER_MAX_BYTES));
  } catch (err) {
    if (err instanceof AnswerBoundError) throw new DownstreamError('engine', err.reason, { status: 200 });
    // A connection reset or a timeout while reading is classified as such, not as bad JSON.
    if (!(err instanceof SyntaxError)) throw err;
    throw new DownstreamError('engine', 'answered invalid JSON', { cause: err, status: 200 });
  }
  if (!reply.Check(json)) {
    const first = reply.Errors(json).First();
    throw new DownstreamError('engine', `answer out of contract at '${first?.path ?? ''}'`, { status: 200 });
  }
  return json;
}

async function readEvents(body: Dispatcher.ResponseData['body'], events: EngineEvents): Promise<EngineReply> {
  const lines = new SseLines();
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
): Promise<EngineReply> {
  const limit = callLimit(target.party, target.timeoutMs, deadlineAt);
  let body: string;
  try {
    body = JSON.stringify(request);
  } catch (err) {
    throw new OutboundRequestError(target.party, err);
  }
  const address = partyAddress(target.baseUrl);
  const spanCall = { party: target.party, method: 'POST', baseUrl: target.baseUrl, path: '/query', attributes: { [ATTR_GEN_AI_REQUEST_STREAM]: true } };
  return clientSpan(target.telemetry, spanCall, async (span) => {
    const startedAt = performance.now();
    const done = attemptTimer(target.telemetry, target.party);
    const timer = startCallTimer(limit);
    let status: number | undefined;
    try {
      const res = await target.dispatcher.request({
        origin: address.origin,
        path: `${address.basePath}/query`,
        method: 'POST',
        headers: withTraceHeaders({ accept: STREAM_ACCEPT, 'content-type': 'application/json' }),
        body,
        signal: timer.signal,
      });
      status = res.statusCode;
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (!isOk(status)) {
        await res.body.dump();
        throw new DownstreamError(target.party, `answered ${status}`, { status });
      }
      const type = String(res.headers['content-type'] ?? '');
      let answer: EngineReply;
      if (type.startsWith('text/event-stream')) {
        const events = new EngineEvents(reply, onText);
        answer = await readEvents(res.body, events);
        if (events.firstTextAt !== undefined) {
          span.setAttribute(ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK, (events.firstTextAt - startedAt) / 1000);
        }
      } else {
        answer = await readJson(res, reply);
      }
      done(undefined);
      return answer;
    } catch (err) {
      const failure = failureReason(err, status, isOk);
      setErrorType(span, failure);
      done(failure);
      throw callError(target.party, err, limit);
    } finally {
      timer.clear();
    }
  });
}
