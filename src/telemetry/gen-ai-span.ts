/**
 * The engine call as a GenAI client span (OpenTelemetry GenAI semantic conventions, pinned to
 * @opentelemetry/semantic-conventions 1.45): named `{gen_ai.operation.name} {gen_ai.request.model}`,
 * i.e. `chat` (the engine names no model), kind CLIENT, with `error.type` when the call fails. It is
 * the engine's HTTP CLIENT span itself, so its HTTP attributes stay on it. A reply reused from the
 * session cache calls no engine and has no such span.
 */
import type { Attributes } from '@opentelemetry/api';
import { ATTR_GEN_AI_CONVERSATION_ID, ATTR_GEN_AI_OPERATION_NAME, ATTR_GEN_AI_OUTPUT_TYPE, ATTR_GEN_AI_PROVIDER_NAME } from './attributes.ts';

export const GEN_AI_OPERATION = 'chat';
/** No `gen_ai.request.model` is known, so the span is named for its operation alone. */
export const GEN_AI_SPAN_NAME = GEN_AI_OPERATION;

export function genAiAttributes(conversationId: string): Attributes {
  return {
    [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION,
    [ATTR_GEN_AI_PROVIDER_NAME]: 'engine',
    [ATTR_GEN_AI_OUTPUT_TYPE]: 'text',
    [ATTR_GEN_AI_CONVERSATION_ID]: conversationId,
  };
}
