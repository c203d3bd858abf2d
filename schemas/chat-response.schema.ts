import { Type, type Static, type TNumber, type TOptional } from '@sinclair/typebox';
import { LATENCY_STEP_NAMES, type LatencyStepName } from './chat-steps.ts';

export const RETRIEVAL_TYPES = ['node', 'rag', 'fixed', 'adapter', 'spf'] as const;
export const RetrievalTypeSchema = Type.Union(RETRIEVAL_TYPES.map((t) => Type.Literal(t)));
export type RetrievalType = (typeof RETRIEVAL_TYPES)[number];

/**
 * One member per step that ran (a failed chat stops early), in milliseconds, named as
 * LATENCY_STEP_NAMES (chat-steps.ts) in the order they are timed. Named members rather
 * than a string-keyed record: the API documents each step, and the serializer writes each member
 * with its name as a constant instead of testing and quoting every key of every response.
 */
export const LatencyStepsSchema = Type.Object(
  Object.fromEntries(LATENCY_STEP_NAMES.map((name) => [name, Type.Optional(Type.Number())])) as Record<LatencyStepName, TOptional<TNumber>>,
  { additionalProperties: false },
);
export type LatencySteps = Static<typeof LatencyStepsSchema>;

export const LatencySchema = Type.Object(
  {
    service_engine_latency: Type.Number(),
    chat_adapter_latency: Type.Number(),
    extract_and_update_contact_latency: Type.Number(),
    create_message_latency: Type.Number(),
    /** One member per pipeline step, in the order the steps ran, in milliseconds. */
    steps: LatencyStepsSchema,
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
    /**
     * The contact understood from this message, masked ("M••• L•••", "•••• 0134", "j•••@gmail.com"):
     * present only when the sub-intent asks for contact details and at least one was found.
     */
    contact_found: Type.Optional(
      Type.Object(
        {
          name: Type.Union([Type.String(), Type.Null()]),
          phone: Type.Union([Type.String(), Type.Null()]),
          email: Type.Union([Type.String(), Type.Null()]),
        },
        { additionalProperties: false, description: 'The contact found in the message, masked; absent when none was looked for or found.' },
      ),
    ),
    memory: Type.Unknown(),
    trace_id: Type.String(),
  },
  { additionalProperties: false },
);
export type ChatResponse = Static<typeof ChatResponseSchema>;
