import { maskContact } from '../src/contacts/mask.ts';
import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';

/** Processing rule 10: the response is assembled with the trace id (the route adds `latency` from the timings). */
export function assembleResponse(ctx: Readonly<ChatContext>): ContextPatch {
  const engine = need(ctx, 'engineReply');
  const reply = need(ctx, 'reply');
  return {
    response: {
      response: reply.response,
      intent: engine.intent,
      sub_intent: engine.sub_intent,
      message_id: need(ctx, 'answerId'),
      retrieval_type: engine.retrieval_type,
      orchestrator_level1_details: engine.orchestrator_level1_details ?? {},
      orchestrator_level2_details: engine.orchestrator_level2_details ?? {},
      keyword_cache: engine.keyword_cache ?? {},
      not_available: reply.not_available,
      context: engine.context ?? null,
      follow_up: reply.follow_up,
      language: reply.language,
      agent_handoff: ctx.agentHandoff ?? null,
      // Masked: the caller sees what was understood, never the details (src/contacts/mask.ts).
      ...(ctx.contact ? { contact_found: maskContact(ctx.contact) } : {}),
      memory: engine.memory ?? null,
      trace_id: ctx.traceId,
    },
  };
}
