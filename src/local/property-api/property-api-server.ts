import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type, type Static } from '@sinclair/typebox';
import { NeighborhoodQuerySchema } from '../../../schemas/property-api.schema.ts';
import type { Knowledge } from '../knowledge/load-knowledge.ts';
import { placeKeywords } from '../knowledge/place-keywords.ts';
import { createPartyApp } from '../party-app.ts';
import { floorPlansOf, tourSlotsOf, unitsOf } from './property-data.ts';

const PropertyQuery = Type.Object({ propertyId: Type.String({ minLength: 1, maxLength: 4096 }) });
type PropertyQuery = Static<typeof PropertyQuery>;
const NeighborhoodBody = Type.Object({
  propertyId: NeighborhoodQuerySchema.properties.propertyId,
  query: Type.String({ maxLength: 4000 }),
});
type NeighborhoodBody = Static<typeof NeighborhoodBody>;

/** The property management API (docs/contracts.md#property-api) over the sample properties; dates follow the clock. */
export function buildPropertyApiApp(knowledge: Knowledge, now: () => Date = () => new Date()): FastifyInstance {
  const app = createPartyApp();
  const notFound = (reply: FastifyReply) => reply.code(404).send({ detail: 'Unknown propertyId' });
  const query = { schema: { querystring: PropertyQuery } };

  app.get<{ Querystring: PropertyQuery }>('/api/v1/units', query, async (request, reply) => {
    const p = knowledge.findProperty(request.query.propertyId);
    return p === undefined ? notFound(reply) : { units: unitsOf(p, now()) };
  });
  app.get<{ Querystring: PropertyQuery }>('/api/v1/floor_plans/', query, async (request, reply) => {
    const p = knowledge.findProperty(request.query.propertyId);
    return p === undefined ? notFound(reply) : { floor_plans: floorPlansOf(p) };
  });
  app.get<{ Querystring: PropertyQuery }>('/api/v1/apartments/all_type_available_time_slots', query, async (request, reply) => {
    const p = knowledge.findProperty(request.query.propertyId);
    return p === undefined ? notFound(reply) : { time_slots: tourSlotsOf(p, now()) };
  });
  app.post<{ Body: NeighborhoodBody }>('/api/v1/service/google_query', { schema: { body: NeighborhoodBody } }, async (request, reply) => {
    const p = knowledge.findProperty(request.body.propertyId);
    return p === undefined ? notFound(reply) : { keywords: placeKeywords(request.body.query) };
  });
  app.get<{ Querystring: PropertyQuery }>('/api/v1/properties/api_token', query, async (request, reply) => {
    const p = knowledge.findProperty(request.query.propertyId);
    if (p === undefined) return notFound(reply);
    // A stable, Base64URL token per property: the local GraphQL store accepts any such value.
    return { token: createHash('sha256').update(`local-graphql:${p.propertyId}`).digest('base64url') };
  });
  return app;
}
