import { performance } from 'node:perf_hooks';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { EngineReplySchema, type EngineReply, type EngineRequest } from '../../schemas/engine.schema.ts';
import type { EngineClient } from '../pipeline/ports.ts';
import { GEN_AI_SPAN_NAME, genAiAttributes } from '../telemetry/gen-ai-span.ts';
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
    query(request: EngineRequest, deadlineAt?: number, onText?): Promise<EngineReply> {
      if (onText !== undefined) return streamEngineQuery(target, engineReply, request, deadlineAt, onText);
      const call = {
        method: 'POST' as const,
        path: '/query',
        body: request,
        reply: engineReply,
        deadlineAt,
        maxBytes: ENGINE_ANSWER_MAX_BYTES,
        spanName: GEN_AI_SPAN_NAME,
        attributes: genAiAttributes(request.conversation_id),
      };
      return timedToAnswer(target, callJson(target, call));
    },
  };
}

/** A JSON answer's first event is the whole answer (or the failure): its time is the engine's latency. */
async function timedToAnswer(target: HttpParty, answer: Promise<EngineReply>): Promise<EngineReply> {
  const startedAt = performance.now();
  try {
    return await answer;
  } finally {
    target.telemetry?.metrics?.observeEngineFirstEvent?.((performance.now() - startedAt) / 1000);
  }
}
