import { TypeCompiler } from '@sinclair/typebox/compiler';
import { EngineReplySchema, type EngineReply, type EngineRequest } from '../../schemas/engine.schema.ts';
import { callJson, type HttpParty } from './http-json.ts';

const engineReply = TypeCompiler.Compile(EngineReplySchema);

/** CONTRACTS 7: a larger engine answer is out of contract (503, nothing stored). */
export const ENGINE_ANSWER_MAX_BYTES = 256 * 1024;

/** CONTRACTS 3.1: `POST {ENGINE_URL}/query`. */
export function createEngineClient(target: HttpParty) {
  return {
    query(request: EngineRequest, deadlineAt?: number): Promise<EngineReply> {
      return callJson(target, { method: 'POST', path: '/query', body: request, reply: engineReply, deadlineAt, maxBytes: ENGINE_ANSWER_MAX_BYTES });
    },
  };
}
