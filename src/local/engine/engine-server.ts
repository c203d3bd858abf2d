import type { FastifyInstance } from 'fastify';
import { EngineRequestSchema, type EngineRequest } from '../../../schemas/engine.schema.ts';
import { createPartyApp } from '../party-app.ts';
import { answerQuery, type EngineDeps } from './answer-query.ts';
import { streamReply } from './stream-reply.ts';

export interface EngineAppOptions {
  /** Pace of a streamed `rag` reply: ms between words (0: all at once). */
  readonly wordMs?: number;
}

/**
 * The reference engine: `POST /query` (docs/contracts.md#engine). Asked with `Accept: text/event-stream`, it
 * streams its `rag` replies word by word at a model's pace (docs/api.md#streamed-replies); the others, whose text is
 * not written by a model, are answered as JSON as always.
 */
export function buildEngineApp(deps: EngineDeps, options: EngineAppOptions = {}): FastifyInstance {
  const app = createPartyApp();
  app.post<{ Body: EngineRequest }>('/query', { schema: { body: EngineRequestSchema } }, async (request, reply) => {
    // The service must strip the visitor's GraphQL key before calling the engine: a request that
    // still carries it is refused, so a leak shows up at once instead of passing silently.
    if (Object.hasOwn(request.body, 'graphql_api_key')) {
      return reply.code(400).send({ detail: 'graphql_api_key must not be sent to the engine' });
    }
    if (request.body.message.trim() === '') return reply.code(400).send({ detail: 'message must not be empty' });
    const answer = answerQuery(request.body, deps);
    if (answer.retrieval_type !== 'rag' || !(request.headers.accept ?? '').includes('text/event-stream')) return answer;
    void reply.hijack();
    await streamReply(reply.raw, answer, options.wordMs ?? 0);
    return reply;
  });
  return app;
}
