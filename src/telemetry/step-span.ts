import { SpanKind, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_INPUT_MESSAGES,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_OUTPUT_TYPE,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_INTENT,
  ATTR_REPLY_SOURCE,
  ATTR_RETRIEVAL_TYPE,
  ATTR_SUB_INTENT,
} from './attributes.ts';
import { recordSpan } from './span.ts';

/** The step that asks the engine: its span is the GenAI operation (the HTTP call is its child). */
export const ENGINE_STEP = 'askEngine';

/** What the step spans read from the chat context (kept structural: telemetry knows no pipeline types). */
export interface StepSpanSource {
  readonly request: { readonly conversation_id: string };
  readonly message?: string | undefined;
  readonly engineReply?: { readonly intent: string; readonly sub_intent: string; readonly retrieval_type: string } | undefined;
  readonly replySource?: string | undefined;
}

export interface StepSpanOptions {
  /** TRACE_MESSAGE_TEXT=true: the visitor's message goes on the askEngine span. Off by default. */
  readonly recordMessageText?: boolean;
}

/** Same shape as the runner's StepInstrument. */
export type StepSpans = <T>(name: string, run: () => Promise<T>) => Promise<T>;

function engineStart(source: StepSpanSource, options: StepSpanOptions): Attributes {
  const attributes: Attributes = {
    [ATTR_GEN_AI_OPERATION_NAME]: 'chat',
    [ATTR_GEN_AI_PROVIDER_NAME]: 'engine',
    [ATTR_GEN_AI_OUTPUT_TYPE]: 'text',
    [ATTR_GEN_AI_CONVERSATION_ID]: source.request.conversation_id,
  };
  if (options.recordMessageText === true && source.message !== undefined) {
    attributes[ATTR_GEN_AI_INPUT_MESSAGES] = JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: source.message }] }]);
  }
  return attributes;
}

/** Set after the answer: which intent the engine (or the cache) found, and how the reply is built. */
function engineResult(span: Span, patch: unknown, source: StepSpanSource): void {
  const fromPatch = (patch ?? {}) as Partial<StepSpanSource>;
  const reply = fromPatch.engineReply ?? source.engineReply;
  const replySource = fromPatch.replySource ?? source.replySource;
  if (reply !== undefined) {
    span.setAttributes({ [ATTR_INTENT]: reply.intent, [ATTR_SUB_INTENT]: reply.sub_intent, [ATTR_RETRIEVAL_TYPE]: reply.retrieval_type });
  }
  if (replySource !== undefined) span.setAttribute(ATTR_REPLY_SOURCE, replySource);
}

/**
 * A child span per pipeline step, named as the step, for one request. `source` is that request's
 * context (read when the engine step starts and ends, so earlier steps' results are seen).
 */
export function stepSpans(tracer: Tracer, source: StepSpanSource, options: StepSpanOptions = {}): StepSpans {
  return (name, run) => {
    if (name !== ENGINE_STEP) return recordSpan(tracer, name, { kind: SpanKind.INTERNAL }, run);
    return recordSpan(tracer, name, { kind: SpanKind.INTERNAL, attributes: engineStart(source, options) }, async (span) => {
      const patch = await run();
      engineResult(span, patch, source);
      return patch;
    });
  };
}
