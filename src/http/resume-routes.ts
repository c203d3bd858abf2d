/**
 * Resume and stop a streamed reply (docs/api.md#resuming-a-streamed-reply,
 * docs/api.md#stopping-a-streamed-reply), served by any instance from the stream log (src/streams/):
 *
 * - `GET /chat_adapter/{conversation_id}/stream`: 204 when nothing of that conversation is streaming
 *   or ended within a minute; else 200, the turn's UI message stream from its `start` (or after the
 *   part named by `Last-Event-ID`), its live parts, and `[DONE]`.
 * - `POST /chat_adapter/{conversation_id}/stop` `{"message_id"?}`: `{"stopped": true}` once the
 *   producer ended the turn with its `abort` part; `{"stopped": false}` when there was nothing to stop.
 *
 * Caller keys are checked as for the chat (caller-auth.ts: 401 before anything), and the turn's
 * organisation must be one the key may chat for (403).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ID_PATTERN } from '../../schemas/chat-request.schema.ts';
import { BadRequestSchema, ForbiddenSchema, ServiceUnavailableSchema, TooManyRequestsSchema, UnauthorizedSchema } from '../../schemas/errors.schema.ts';
import type { FoundTurn, StreamLog } from '../streams/stream-log.ts';
import { sendError } from './error-replies.ts';
import type { RequestHook } from './hook-outcome.ts';
import { UI_MESSAGE_STREAM_HEADERS } from './stream-writer.ts';

/** A resumer whose socket holds this many unsent bytes is not reading: it is closed, like any slow reader. */
export const SLOW_READER_BYTES = 1024 * 1024;
/** How long a stop waits for the producer to end the turn (a producer on another instance sees the stop within ~1.5 s). */
const STOP_WAIT_MS = 10_000;
const STOP_POLL_MS = 50;
const MESSAGE_ID_MAX_CHARS = 256;

export const INTERRUPTED_TEXT = 'The reply was interrupted; ask again.';
const STORE_UNAVAILABLE = 'stream log unavailable';

const ParamsSchema = Type.Object({
  conversation_id: Type.String({ pattern: ID_PATTERN, maxLength: 4096, description: 'The chat\'s conversation_id' }),
});
const StopSchema = Type.Object({ stopped: Type.Boolean() }, { additionalProperties: false });

/** False (and the 403 sent) when the caller's key may not chat for the turn's organisation or property. */
function allowed(request: FastifyRequest, reply: FastifyReply, turn: FoundTurn): boolean {
  const orgIds = request.caller?.orgIds;
  const propertyIds = request.caller?.propertyIds;
  if ((orgIds === undefined || orgIds.has(turn.scope.orgId)) && (propertyIds === undefined || propertyIds.has(turn.scope.propertyId))) return true;
  sendError(reply, 403, 'Forbidden');
  return false;
}

/** `Last-Event-ID`: the SSE id of the last part the caller has; absent = from the start. */
function lastEventId(request: FastifyRequest): number | undefined {
  const raw = request.headers['last-event-id'];
  if (raw === undefined || raw === '') return 0;
  if (typeof raw !== 'string' || !/^[0-9]{1,15}$/.test(raw)) return undefined;
  return Number(raw);
}

/** Fastify's onResponse hooks of a hijacked reply run on finish or on an error event (as stream-chat.ts does). */
function endWithoutCaller(reply: FastifyReply): void {
  if (reply.raw.listenerCount('error') === 0) return;
  reply.raw.emit('error', Object.assign(new Error('the caller closed the connection before the stream ended'), { name: 'ClientGoneError' }));
}

/** Writes what the follower reads until the end, an interruption, or the caller leaves (or stops reading). */
async function relay(reply: FastifyReply, follower: NonNullable<ReturnType<FoundTurn['follow']>>): Promise<void> {
  const res = reply.raw;
  let gone = false;
  let ended = false;
  res.on('close', () => {
    if (!ended) gone = true;
    follower.close();
  });
  res.writeHead(200, { ...reply.getHeaders(), ...UI_MESSAGE_STREAM_HEADERS, 'cache-control': 'no-store' } as Record<string, string>);
  try {
    for await (const item of follower) {
      if (gone) break;
      if (item.kind === 'part') {
        res.write(`id: ${item.id}\ndata: ${item.json}\n\n`);
        if (res.writableLength > SLOW_READER_BYTES) {
          res.destroy();
          break;
        }
        continue;
      }
      // The producer died: what it wrote, then an error part (no id: it is not one of the turn's parts).
      if (item.kind === 'interrupted') {
        res.write(`data: ${JSON.stringify({ type: 'error', errorText: INTERRUPTED_TEXT })}\n\n`);
        res.write(`data: ${JSON.stringify({ type: 'finish', finishReason: 'error' })}\n\n`);
      }
      ended = true;
      res.end('data: [DONE]\n\n');
      return;
    }
  } finally {
    follower.close();
    if (!ended) {
      res.destroy();
      endWithoutCaller(reply);
    }
  }
}

/** Waits until the turn named by `messageId` ended; true when it ended stopped. */
async function endedStopped(streams: StreamLog, conversationId: string, messageId: string): Promise<boolean> {
  const until = Date.now() + STOP_WAIT_MS;
  while (Date.now() < until) {
    const turn = await streams.find(conversationId);
    if (turn === undefined || turn.messageId !== messageId) return false;
    if (turn.ended !== undefined) return turn.ended === 'aborted';
    await sleep(STOP_POLL_MS);
  }
  return false;
}

/** The conversation's turn; a store that cannot be read is a 503 (sent here, undefined returned). */
async function findTurn(streams: StreamLog, request: FastifyRequest, reply: FastifyReply, conversationId: string): Promise<FoundTurn | null | undefined> {
  try {
    return (await streams.find(conversationId)) ?? null;
  } catch (err) {
    request.log.warn({ reason: err instanceof Error ? err.message : String(err) }, 'stream log unavailable');
    sendError(reply, 503, STORE_UNAVAILABLE, { 'retry-after': '1' });
    return undefined;
  }
}

/**
 * Registers both routes on the chat plugin's scope (so also under ROUTE_PREFIX); `callerKey` is the
 * chat's key check (caller-auth.ts), their only hook of the chat's gate.
 */
export function registerResumeRoutes(app: FastifyInstance, streams: StreamLog, callerKey: RequestHook | undefined): void {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const hooks = callerKey === undefined ? {} : { onRequest: callerKey };
  typed.get('/chat_adapter/:conversation_id/stream', {
    ...hooks,
    schema: {
      params: ParamsSchema,
      response: { 204: Type.Null(), 400: BadRequestSchema, 401: UnauthorizedSchema, 403: ForbiddenSchema, 429: TooManyRequestsSchema, 503: ServiceUnavailableSchema },
    },
  }, async (request, reply) => {
    const after = lastEventId(request);
    if (after === undefined) {
      return sendError(reply, 400, { message: 'Invalid request: Last-Event-ID must be the id of a part (digits)', trace_id: request.traceId });
    }
    const turn = await findTurn(streams, request, reply, request.params.conversation_id);
    if (turn === undefined) return reply;
    if (turn === null) return reply.code(204).header('cache-control', 'no-store').send(null);
    if (!allowed(request, reply, turn)) return reply;
    const follower = turn.follow(after);
    if (follower === undefined) return sendError(reply, 429, 'Too Many Requests', { 'retry-after': '1' });
    void reply.hijack();
    await relay(reply, follower);
    return reply;
  });

  typed.post('/chat_adapter/:conversation_id/stop', {
    ...hooks,
    schema: {
      params: ParamsSchema,
      body: Type.Optional(Type.Object({ message_id: Type.Optional(Type.String({ minLength: 1, maxLength: MESSAGE_ID_MAX_CHARS })) })),
      response: { 200: StopSchema, 400: BadRequestSchema, 401: UnauthorizedSchema, 403: ForbiddenSchema, 503: ServiceUnavailableSchema },
    },
  }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const conversationId = request.params.conversation_id;
    const turn = await findTurn(streams, request, reply, conversationId);
    if (turn === undefined) return reply;
    if (turn === null) return { stopped: false };
    if (!allowed(request, reply, turn)) return reply;
    const seen = request.body?.message_id;
    if (turn.ended !== undefined || (seen !== undefined && seen !== turn.messageId)) return { stopped: false };
    await streams.requestStop(conversationId, turn);
    return { stopped: await endedStopped(streams, conversationId, turn.messageId) };
  });
}
