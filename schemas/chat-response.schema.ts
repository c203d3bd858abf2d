import { Type, type Static } from '@sinclair/typebox';

export const RETRIEVAL_TYPES = ['node', 'rag', 'fixed', 'adapter', 'spf'] as const;
export const RetrievalTypeSchema = Type.Union(RETRIEVAL_TYPES.map((t) => Type.Literal(t)));
export type RetrievalType = (typeof RETRIEVAL_TYPES)[number];

export const LatencySchema = Type.Object(
  {
    service_engine_latency: Type.Number(),
    chat_adapter_latency: Type.Number(),
    extract_and_update_contact_latency: Type.Number(),
    create_message_latency: Type.Number(),
    /** One member per pipeline step, in the order the steps ran, in milliseconds. */
    steps: Type.Record(Type.String(), Type.Number()),
  },
  { additionalProperties: false },
);
export type Latency = Static<typeof LatencySchema>;

export const AgentHandoffSchema = Type.Object(
  { requested: Type.Boolean(), reason: Type.String() },
  { additionalProperties: false },
);
export type AgentHandoff = Static<typeof AgentHandoffSchema>;

const OpenObject = Type.Object({}, { additionalProperties: true });

export const ChatResponseSchema = Type.Object(
  {
    response: Type.String(),
    intent: Type.String(),
    sub_intent: Type.String(),
    message_id: Type.String(),
    retrieval_type: RetrievalTypeSchema,
    orchestrator_level1_details: OpenObject,
    orchestrator_level2_details: OpenObject,
    keyword_cache: OpenObject,
    not_available: Type.Array(Type.Unknown()),
    context: Type.Unknown(),
    follow_up: Type.String(),
    latency: LatencySchema,
    language: Type.String(),
    agent_handoff: Type.Union([AgentHandoffSchema, Type.Null()]),
    memory: Type.Unknown(),
    trace_id: Type.String(),
  },
  { additionalProperties: false },
);
export type ChatResponse = Static<typeof ChatResponseSchema>;
