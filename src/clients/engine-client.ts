import { TypeCompiler } from '@sinclair/typebox/compiler';
import { EngineReplySchema, type EngineReply, type EngineRequest } from '../../schemas/engine.schema.ts';
import { callJson, type HttpParty } from './http-json.ts';

const engineReply = TypeCompiler.Compile(EngineReplySchema);

/** docs/contracts.md#engine: `POST {ENGINE_URL}/query`. */
export function createEngineClient(target: HttpParty) {
  return {
    query(request: EngineRequest, deadlineAt?: number): Promise<EngineReply> {
      return callJson(target, { method: 'POST', path: '/query', body: request, reply: engineReply, deadlineAt });
    },
  };
}
