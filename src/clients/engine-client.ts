import { TypeCompiler } from '@sinclair/typebox/compiler';
import { EngineReplySchema, type EngineReply, type EngineRequest } from '../../schemas/engine.schema.ts';
import type { EngineClient } from '../pipeline/ports.ts';
import { ENGINE_ANSWER_MAX_BYTES, streamEngineQuery } from './engine-stream-call.ts';
import { callJson, type HttpParty } from './http-json.ts';

export { ENGINE_ANSWER_MAX_BYTES };

const engineReply = TypeCompiler.Compile(EngineReplySchema);

/**
 * docs/contracts.md#engine: `POST {ENGINE_URL}/query`. A chat answered as JSON asks for JSON only; a chat
 * answered as a stream lets the engine stream too (docs/api.md#streamed-replies, engine-stream-call.ts).
 */
export function createEngineClient(target: HttpParty): EngineClient {
  return {
    query(request: EngineRequest, deadlineAt?: number, onText?, stop?): Promise<EngineReply> {
      if (onText !== undefined) return streamEngineQuery(target, engineReply, request, deadlineAt, onText, stop);
      return callJson(target, { method: 'POST', path: '/query', body: request, reply: engineReply, deadlineAt, maxBytes: ENGINE_ANSWER_MAX_BYTES, stop });
    },
  };
}
