import type { FastifyInstance } from 'fastify';
import mercurius from 'mercurius';
import { GRAPHQL_API_KEY_PATTERN } from '../../../schemas/chat-request.schema.ts';
import { createPartyApp } from '../party-app.ts';
import type { ConversationStore } from '../store/conversation-store.ts';
import { buildResolvers } from './resolvers.ts';
import { SCHEMA } from './schema.ts';

export const GRAPHQL_PATH = '/graphql';
const API_KEY = new RegExp(GRAPHQL_API_KEY_PATTERN);

/**
 * The local conversation store's GraphQL API (docs/contracts.md#graphql-store) at `/graphql`. Locally it only
 * requires `x-graphql-api-key` to be present and Base64URL; `authorization` and `x-api-key` are
 * accepted as sent. No header is ever stored or logged.
 */
export async function buildGraphqlApp(store: ConversationStore): Promise<FastifyInstance> {
  const app = createPartyApp();
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(GRAPHQL_PATH)) return;
    const key = request.headers['x-graphql-api-key'];
    if (typeof key !== 'string' || key.length > 4096 || !API_KEY.test(key)) {
      await reply.code(401).send({ errors: [{ message: 'x-graphql-api-key header (Base64URL) is required' }] });
    }
  });
  await app.register(mercurius, { schema: SCHEMA, resolvers: buildResolvers(store), path: GRAPHQL_PATH, graphiql: false });
  return app;
}
