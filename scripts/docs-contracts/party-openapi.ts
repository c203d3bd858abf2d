/**
 * One OpenAPI 3.1 document per HTTP party, from the TypeBox schemas the service validates the
 * party's answers against (and sends its requests by). What is not a schema (which statuses count
 * as what, headers, timeouts) is said here once, in the documents' descriptions.
 */
import type { TSchema } from '@sinclair/typebox';
import { EngineDeltaEventSchema, EngineDoneEventSchema, EngineReplySchema, EngineRequestSchema } from '../../schemas/engine.schema.ts';
import {
  LEGACY_SIGNATURE_HEADER, WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER,
} from '../../src/clients/handoff-signature.ts';
import { HandoffRequestSchema } from '../../schemas/handoff.schema.ts';
import {
  ApiTokenReplySchema, FloorPlansReplySchema, NeighborhoodQuerySchema, NeighborhoodReplySchema, TimeSlotsReplySchema, UnitsReplySchema,
} from '../../schemas/property-api.schema.ts';
import { TranslateReplySchema, TranslateRequestSchema } from '../../schemas/translate.schema.ts';

type Json = Record<string, unknown>;

const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;
const json = (schema: TSchema) => ({ 'application/json': { schema: plain(schema) } });

const TRACEPARENT = {
  name: 'traceparent',
  in: 'header',
  required: false,
  description: 'W3C trace context of the chat: the party may continue the trace',
  schema: { type: 'string' },
};

const FAILURE = 'Any other status, a reset or refused connection, no answer within the timeout, or a body that does not match this schema counts as a failure of the party (docs/api.md#when-a-party-fails).';

function document(title: string, urlVariable: string, localUrl: string, description: string, paths: Json): Json {
  return {
    openapi: '3.1.0',
    info: {
      title,
      version: '1.5',
      description: `${description}\n\nGenerated from schemas/ by \`npm run docs:contracts\`; explained in docs/contracts.md.`,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: `{${urlVariable}}`, description: `The address configured in ${urlVariable}`, variables: { [urlVariable]: { default: localUrl } } }],
    paths,
  };
}

/** What a delivery carries: the handoff plus its `handoff_id`, also sent as the `Idempotency-Key`. */
function handoffDelivery(): Json {
  const schema = plain(HandoffRequestSchema);
  return {
    ...schema,
    properties: { ...(schema['properties'] as Json), handoff_id: { type: 'string', format: 'uuid', description: 'The handoff\'s identity, the same on every attempt' } },
    required: [...(schema['required'] as string[]), 'handoff_id'],
  };
}

/** The Standard Webhooks headers of a delivery (docs/handoff-receivers.md), named as src/clients/handoff-signature.ts sends them. */
const WEBHOOK_HEADERS: Json[] = [
  {
    name: WEBHOOK_ID_HEADER, in: 'header', required: true, schema: { type: 'string', format: 'uuid' },
    description: 'The handoff\'s `handoff_id`, the same on every attempt and covered by the signature: deduplicate on it.',
  },
  {
    name: WEBHOOK_TIMESTAMP_HEADER, in: 'header', required: false, schema: { type: 'string', pattern: '^[0-9]+$' },
    description: 'Unix seconds when this attempt was signed (each attempt is signed afresh). Sent when HANDOFF_SIGNING_SECRET is set; refuse one more than 5 minutes from your clock.',
  },
  {
    name: WEBHOOK_SIGNATURE_HEADER, in: 'header', required: false, schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
    description: 'Standard Webhooks signatures: `v1,<base64 HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<raw body>")>`, one space-separated entry per active secret (newest first), the key being the bytes of the `whsec_` secret\'s base64 part. Sent when HANDOFF_SIGNING_SECRET is set; accept the delivery when any entry matches any secret you hold.',
  },
  {
    name: LEGACY_SIGNATURE_HEADER, in: 'header', required: false, deprecated: true, schema: { type: 'string' },
    description: 'The former signature, `t=<unix s>,v1=<hex HMAC-SHA256(secret text, "<t>.<raw body>")>`, sent only with HANDOFF_LEGACY_SIGNATURE=true; removed in the next minor version.',
  },
];

/** The engine's optional event-stream answer: the media type, and each `data:` event's JSON schema. */
function engineEventStream(): Json {
  return {
    'text/event-stream': {
      schema: { type: 'string', description: 'Server-sent events; each `data:` line is one JSON event (x-event-data): deltas, then one done event.' },
      'x-event-data': {
        oneOf: [
          { title: 'delta', ...plain(EngineDeltaEventSchema) },
          { title: 'done', description: 'Every member of the answer but `response` (the deltas joined)', ...plain(EngineDoneEventSchema) },
        ],
      },
    },
  };
}

function propertyGet(summary: string, reply: TSchema): Json {
  return {
    get: {
      summary,
      parameters: [{ name: 'propertyId', in: 'query', required: true, schema: { type: 'string' } }, TRACEPARENT],
      responses: { 200: { description: 'The answer', content: json(reply) } },
    },
  };
}

/** Party name (the file's stem) -> its OpenAPI document. */
export function partyDocuments(): Map<string, Json> {
  return new Map<string, Json>([
    ['engine', document('Engine (called by the chat adapter)', 'ENGINE_URL', 'http://127.0.0.1:6101',
      `Intent classification and reply generation. The chat adapter calls it once per chat that the session cache does not answer. ${FAILURE} A failed engine fails the chat with 503 "engine unavailable".`,
      {
        '/query': {
          post: {
            summary: 'Classify a chat message and answer it',
            description: 'The body is the caller\'s chat request with `history` trimmed to its last 4 items, `graphql_api_key` removed and `language` (the reply language) added. The service asks with `Accept: text/event-stream, application/json`: the engine may answer the JSON reply, or stream it as server-sent events (text first, then the rest of the answer).',
            parameters: [TRACEPARENT],
            requestBody: { required: true, content: json(EngineRequestSchema) },
            responses: { 200: { description: 'The reply and its classification, as one JSON answer or as an event stream', content: { ...json(EngineReplySchema), ...engineEventStream() } } },
          },
        },
      })],
    ['translator', document('Translator (called by the chat adapter)', 'TRANSLATE_URL', 'http://127.0.0.1:6105',
      `English to Spanish translation of a formatted reply: one call for \`response\`, one for \`follow_up\` when it is not empty. ${FAILURE} A failed translation is not an error for the visitor: the reply goes out in English.`,
      {
        '/translate': {
          post: {
            summary: 'Translate a text',
            parameters: [TRACEPARENT],
            requestBody: { required: true, content: json(TranslateRequestSchema) },
            responses: { 200: { description: 'The translated text', content: json(TranslateReplySchema) } },
          },
        },
      })],
    ['handoff-receiver', document('Handoff receiver (called by the chat adapter)', 'HANDOFF_URL', 'http://127.0.0.1:6103',
      'Receives the escalations of chats to a person, signed after the Standard Webhooks specification (docs/handoff-receivers.md): verify them with any Standard Webhooks library (npm `standardwebhooks`, Svix\'s libraries) and the `whsec_` secret. Delivery is at least once: the same handoff may arrive more than once, always with the same `webhook-id` (also sent as `Idempotency-Key`), which the receiver must treat as its identity. A connection error, a timeout, 408, 429 or 5xx is retried with backoff until the handoff is `HANDOFF_MAX_AGE_S` old; any other status that is not 2xx (401 for a delivery that does not verify) is final and dead-letters the handoff.',
      {
        '/handoff': {
          post: {
            summary: 'Accept one handoff',
            parameters: [
              ...WEBHOOK_HEADERS,
              { name: 'Idempotency-Key', in: 'header', required: true, description: 'The handoff\'s `handoff_id` (a UUID), the same on every attempt, as `webhook-id` (which, unlike this header, the signature covers)', schema: { type: 'string', format: 'uuid' } },
              TRACEPARENT,
            ],
            requestBody: { required: true, content: { 'application/json': { schema: handoffDelivery() } } },
            responses: {
              202: { description: 'Accepted (any 2xx is an acknowledgement; the body is not read)' },
              401: { description: 'The signature does not verify or its timestamp is too old: final, the handoff is dead-lettered' },
              '5XX': { description: 'Retried later with backoff' },
            },
          },
        },
      })],
    ['property-api', document('Property management API (called by the chat adapter)', 'PROPERTY_API_URL', 'http://127.0.0.1:6104',
      `Live property data for replies the engine marks \`retrieval_type: adapter\` with an \`adapter_action\`. ${FAILURE} A failed call is not an error for the visitor: the reply says the information is not available right now and names it in \`not_available\`.`,
      {
        '/api/v1/units': propertyGet('Units of a property (adapter_action units)', UnitsReplySchema),
        '/api/v1/floor_plans/': propertyGet('Floor plans of a property (adapter_action floor_plans)', FloorPlansReplySchema),
        '/api/v1/apartments/all_type_available_time_slots': propertyGet('Tour time slots, ISO 8601 (adapter_action tour_slots; only when tourScheduleEnabled)', TimeSlotsReplySchema),
        '/api/v1/service/google_query': {
          post: {
            summary: 'Neighborhood keywords for a question (adapter_action neighborhood)',
            parameters: [TRACEPARENT],
            requestBody: { required: true, content: json(NeighborhoodQuerySchema) },
            responses: { 200: { description: 'Keywords', content: json(NeighborhoodReplySchema) } },
          },
        },
        '/api/v1/properties/api_token': propertyGet('A GraphQL API token for a property (part of the API; the service does not call it)', ApiTokenReplySchema),
      })],
  ]);
}
