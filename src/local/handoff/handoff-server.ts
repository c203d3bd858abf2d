import type { FastifyInstance } from 'fastify';
import { HandoffRequestSchema, type HandoffRequest } from '../../../schemas/handoff.schema.ts';
import { createPartyApp } from '../party-app.ts';
import type { ConversationStore } from '../store/conversation-store.ts';
import type { DeliveryKeys } from './delivery-keys.ts';

/** A printable ASCII key of 1..255 characters (as the service's own Idempotency-Key rule). */
function idempotencyKey(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && /^[\x20-\x7e]{1,255}$/.test(header) ? header : undefined;
}

/**
 * The local handoff receiver: `POST /handoff` (docs/contracts.md#handoff-receiver) -> 202. Each handoff is recorded in
 * the conversation store and shows up under `handoffs` of the GraphQL `conversation` query. A
 * re-delivery with the same `Idempotency-Key` (docs/operations.md#handoffs-and-dead-letters), or the same handoff sent again
 * without one, is accepted again but stored once.
 */
export function buildHandoffApp(store: ConversationStore, keys: DeliveryKeys): FastifyInstance {
  const app = createPartyApp();
  app.post<{ Body: HandoffRequest }>('/handoff', { schema: { body: HandoffRequestSchema } }, async (request, reply) => {
    const recorded = keys.once(idempotencyKey(request.headers['idempotency-key']), () => store.recordHandoff(request.body));
    return reply.code(202).send({ accepted: true, id: recorded.id, duplicate: recorded.duplicate });
  });
  return app;
}
