import { Type, type Static } from '@sinclair/typebox';
import { HistoryItemSchema } from './chat-request.schema.ts';
import { RetrievalTypeSchema } from './chat-response.schema.ts';

export const LanguageSchema = Type.Union([Type.Literal('en'), Type.Literal('es')]);
export type Language = Static<typeof LanguageSchema>;

const OpenObject = Type.Object({}, { additionalProperties: true });

/** docs/contracts.md#engine: the chat request, history trimmed to 4, graphql_api_key removed, language added. */
export const EngineRequestSchema = Type.Object({
  propertyId: Type.String(),
  message: Type.String(),
  orgId: Type.String(),
  session_id: Type.String(),
  conversation_id: Type.String(),
  tourScheduleEnabled: Type.Boolean(),
  history: Type.Array(HistoryItemSchema),
  entry_id: Type.Optional(Type.String()),
  booking_id: Type.Optional(Type.String()),
  reschedule_information: Type.Optional(OpenObject),
  schedule_information: Type.Optional(OpenObject),
  spanish_support_enabled: Type.Boolean(),
  spanish_toggle: Type.Boolean(),
  is_first_entry: Type.Boolean(),
  org_name: Type.Optional(Type.String()),
  language: LanguageSchema,
});
export type EngineRequest = Static<typeof EngineRequestSchema>;

export const ADAPTER_ACTIONS = ['units', 'floor_plans', 'tour_slots', 'neighborhood'] as const;
export type AdapterAction = (typeof ADAPTER_ACTIONS)[number];

/** One structured item of a `node` reply: `name` plus any fields. */
export const EngineDataItemSchema = Type.Record(Type.String(), Type.Unknown());
export type EngineDataItem = Static<typeof EngineDataItemSchema>;

/** The engine's answer (docs/contracts.md#engine). An answer that does not match is treated as an unavailable engine. */
export const EngineReplySchema = Type.Object({
  response: Type.String(),
  intent: Type.String(),
  sub_intent: Type.String(),
  retrieval_type: RetrievalTypeSchema,
  orchestrator_level1_details: Type.Optional(OpenObject),
  orchestrator_level2_details: Type.Optional(OpenObject),
  keyword_cache: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  not_available: Type.Optional(Type.Array(Type.Unknown())),
  context: Type.Optional(Type.Unknown()),
  follow_up: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  memory: Type.Optional(Type.Unknown()),
  agent_handoff: Type.Optional(Type.Unknown()),
  language: Type.Optional(Type.String()),
  data: Type.Optional(Type.Array(EngineDataItemSchema)),
  adapter_action: Type.Optional(Type.Union(ADAPTER_ACTIONS.map((a) => Type.Literal(a)))),
});
export type EngineReply = Static<typeof EngineReplySchema>;

/**
 * The engine's event stream (docs/contracts.md#engine, optional for an engine): each SSE `data:` is
 * one JSON event. Text first, as deltas (the first event may name the reply's `retrieval_type` and
 * `language` before any text); then one `done` event with every member of the answer but `response`,
 * which is the deltas joined (src/clients/engine-events.ts checks the joined answer against EngineReplySchema).
 */
export const EngineDeltaEventSchema = Type.Object({
  delta: Type.String({ description: 'The next piece of the reply text' }),
  retrieval_type: Type.Optional(RetrievalTypeSchema),
  language: Type.Optional(Type.String()),
});
export const EngineDoneEventSchema = Type.Composite([Type.Object({ done: Type.Literal(true) }), Type.Omit(EngineReplySchema, ['response'])]);
