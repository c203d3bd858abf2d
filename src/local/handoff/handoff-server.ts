import type { FastifyInstance } from 'fastify';
import { HandoffRequestSchema, type HandoffRequest } from '../../../schemas/handoff.schema.ts';
import { createPartyApp } from '../party-app.ts';
import type { ConversationStore } from '../store/conversation-store.ts';

/**
 * The local handoff receiver: `POST /handoff` (CONTRACTS 3.3) -> 202. Each handoff is recorded in
 * the conversation store and shows up under `handoffs` of the GraphQL `conversation` query. A
 * retried delivery of the same handoff is accepted again but stored once.
 */
export function buildHandoffApp(store: ConversationStore): FastifyInstance {
  const app = createPartyApp();
  app.post<{ Body: HandoffRequest }>('/handoff', { schema: { body: HandoffRequestSchema } }, async (request, reply) => {
    const recorded = store.recordHandoff(request.body);
    return reply.code(202).send({ accepted: true, id: recorded.id, duplicate: recorded.duplicate });
  });
  return app;
}
