import type { FastifyInstance } from 'fastify';
import { EngineRequestSchema, type EngineRequest } from '../../../schemas/engine.schema.ts';
import { createPartyApp } from '../party-app.ts';
import { answerQuery, type EngineDeps } from './answer-query.ts';

/** The reference engine: `POST /query` (docs/contracts.md#engine). */
export function buildEngineApp(deps: EngineDeps): FastifyInstance {
  const app = createPartyApp();
  app.post<{ Body: EngineRequest }>('/query', { schema: { body: EngineRequestSchema } }, async (request, reply) => {
    // The service must strip the visitor's GraphQL key before calling the engine: a request that
    // still carries it is refused, so a leak shows up at once instead of passing silently.
    if (Object.hasOwn(request.body, 'graphql_api_key')) {
      return reply.code(400).send({ detail: 'graphql_api_key must not be sent to the engine' });
    }
    if (request.body.message.trim() === '') return reply.code(400).send({ detail: 'message must not be empty' });
    return answerQuery(request.body, deps);
  });
  return app;
}
