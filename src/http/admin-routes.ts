/**
 * The handoff outbox's admin routes (docs/operations.md#handoffs-and-dead-letters, docs/api.md#caller-keys), served only when ADMIN_API_KEY is set:
 *   GET  /admin/handoffs?status=dead|pending   lists handoffs (ids, times, attempts, last error)
 *   POST /admin/handoffs/{handoff_id}/retry    queues a dead letter again: 202; 404 unknown; 409 not dead
 * Every request needs `Authorization: Bearer <ADMIN_API_KEY>` (401 otherwise). Nothing here ever
 * shows a visitor's message or contact.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  HandoffListQuerySchema,
  HandoffListSchema,
  HandoffRetriedSchema,
  HandoffRetryParamsSchema,
  type AdminHandoff,
} from '../../schemas/admin.schema.ts';
import { DetailTextSchema, DetailWithTraceSchema } from '../../schemas/errors.schema.ts';
import { bearerToken, digestKey, matchKey } from './bearer-key.ts';
import { sendError } from './error-replies.ts';

/** What the routes need of the outbox (src/outbox/outbox.ts implements it). */
export interface HandoffAdmin {
  list(status: 'pending' | 'dead', limit: number): Promise<readonly AdminHandoff[]>;
  retry(handoffId: string): Promise<'queued' | 'not_found' | 'not_dead'>;
}

export interface AdminRoutesOptions {
  /** ADMIN_API_KEY: only its digest is kept, from start-up on. */
  readonly apiKey: string;
  readonly handoffs: HandoffAdmin;
}

const errors = { 400: DetailWithTraceSchema, 401: DetailTextSchema, 503: DetailTextSchema };

/** The outbox cannot be read (SQLite file unusable, Redis down): say so rather than a bare 500. */
async function orUnavailable<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch {
    reply.log.warn({ status: 503 }, 'handoff outbox unavailable to an admin request');
    return sendError(reply, 503, 'handoff outbox unavailable');
  }
}

export function adminRoutes(options: AdminRoutesOptions): FastifyPluginAsync {
  const digests = [digestKey(options.apiKey)];
  const { handoffs } = options;

  return async (app) => {
    // Encapsulated: this hook guards the admin routes only.
    app.addHook('onRequest', async (request, reply) => {
      if (matchKey(bearerToken(request.headers.authorization), digests) === -1) {
        await sendError(reply, 401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
      }
    });
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

    typed.get(
      '/admin/handoffs',
      { schema: { querystring: HandoffListQuerySchema, response: { 200: HandoffListSchema, ...errors } } },
      async (request, reply) => {
        const status = request.query.status ?? 'dead';
        const limit = Number(request.query.limit ?? '100');
        return orUnavailable(reply, async () => ({ status, handoffs: [...(await handoffs.list(status, limit))] }));
      },
    );

    typed.post(
      '/admin/handoffs/:handoff_id/retry',
      { schema: { params: HandoffRetryParamsSchema, response: { 202: HandoffRetriedSchema, 404: DetailTextSchema, 409: DetailTextSchema, ...errors } } },
      async (request, reply) => {
        const id = request.params.handoff_id.toLowerCase();
        return orUnavailable(reply, async () => {
          const result = await handoffs.retry(id);
          if (result === 'not_found') return sendError(reply, 404, 'Handoff not found');
          if (result === 'not_dead') return sendError(reply, 409, 'Handoff is not dead-lettered: it is pending, being delivered or delivered');
          request.log.info({ handoff_id: id }, 'handoff re-queued by an admin');
          return reply.code(202).send({ handoff_id: id, status: 'pending' });
        });
      },
    );
  };
}
