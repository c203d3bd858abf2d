import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { HandoffReceivedSchema, type HandoffReceived } from '../../../schemas/handoff.schema.ts';
import { createPartyApp } from '../party-app.ts';
import type { ConversationStore } from '../store/conversation-store.ts';
import type { DeliveryKeys } from './delivery-keys.ts';
import { checkSignature } from './signature-check.ts';

/** A printable ASCII key of 1..255 characters (as the service's own Idempotency-Key rule). */
function idempotencyKey(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && /^[\x20-\x7e]{1,255}$/.test(header) ? header : undefined;
}

export interface HandoffReceiverOptions {
  /** HANDOFF_SIGNING_SECRET of the service (`whsec_` secrets): when given, every delivery must be signed with one of them. */
  readonly signingSecrets?: readonly string[];
  readonly now?: () => number;
}

/**
 * The local handoff receiver: `POST /handoff` (docs/contracts.md#handoff-receiver, docs/handoff-receivers.md) -> 202. Each handoff is recorded in
 * the conversation store and shows up under `handoffs` of the GraphQL `conversation` query. A
 * re-delivery with the same `webhook-id` or `Idempotency-Key` (docs/operations.md#handoffs-and-dead-letters), or the same
 * handoff sent again without either, is accepted again but stored once. When it knows the signing secrets, a delivery
 * without a valid, fresh Standard Webhooks signature is refused (401; 400 when a header is malformed) and not recorded.
 */
export function buildHandoffApp(store: ConversationStore, keys: DeliveryKeys, options: HandoffReceiverOptions = {}): FastifyInstance {
  const app = createPartyApp();
  const secrets = options.signingSecrets ?? [];
  const now = options.now ?? Date.now;
  // The signature covers the body as sent: keep the raw text beside the parsed object.
  const rawBodies = new WeakMap<object, string>();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    try {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      rawBodies.set(request, text);
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(Object.assign(new Error('body is not valid JSON'), { statusCode: 400 }), undefined);
    }
  });
  if (secrets.length > 0) {
    app.addHook('preValidation', async (request, reply) => {
      const { headers } = request;
      const signed = { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'] };
      const verdict = checkSignature(signed, rawBodies.get(request) ?? '', secrets, now());
      if (!verdict.ok) return reply.code(verdict.status).send({ detail: verdict.detail });
    });
  }
  app.post<{ Body: HandoffReceived }>('/handoff', { schema: { body: HandoffReceivedSchema } }, async (request, reply) => {
    // Deduplicated on webhook-id (covered by the signature), else on Idempotency-Key: both are the handoff_id.
    const key = idempotencyKey(request.headers['webhook-id']) ?? idempotencyKey(request.headers['idempotency-key']);
    const recorded = keys.once(key, () => store.recordHandoff(request.body));
    return reply.code(202).send({ accepted: true, id: recorded.id, duplicate: recorded.duplicate });
  });
  return app;
}
