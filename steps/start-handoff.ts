import { TRANSCRIPT_MAX_MESSAGES, type TranscriptMessage } from '../schemas/handoff.schema.ts';
import { need, type ChatContext } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';

/**
 * The conversation as the agent reads it (docs/contracts.md#handoff-receiver): the history the service knows for this
 * session (the request's, or the session cache's when the request sent none), then this turn's
 * question and the reply the visitor was given; the last 8, oldest first.
 */
function transcriptOf(ctx: Readonly<ChatContext>, reply: string): TranscriptMessage[] {
  const earlier = ctx.request.history.length > 0 ? ctx.request.history : (ctx.session?.messages ?? []);
  const recent = earlier.slice(-(TRANSCRIPT_MAX_MESSAGES - 2)).map(({ role, content }) => ({ role, content }));
  return [...recent, { role: 'user', content: need(ctx, 'message') }, { role: 'assistant', content: reply }];
}

/**
 * Rule 8 and docs/operations.md#handoffs-and-dead-letters / 9: the handoff is written to the durable outbox before the reply goes
 * out (the step waits for that write only: a SQLite insert or a Redis job add); delivery runs in
 * the background. A chat without a handoff touches no outbox at all.
 */
export function startHandoff(ctx: Readonly<ChatContext>, deps: Deps): Promise<void> | undefined {
  // No handoff (most chats): answered at once, without a promise.
  if (!ctx.agentHandoff) return undefined;
  const engine = need(ctx, 'engineReply');
  const reply = need(ctx, 'reply');
  const r = ctx.request;
  return deps.handoff.enqueue({
    handoff_id: deps.newId(),
    conversation_id: r.conversation_id,
    propertyId: r.propertyId,
    orgId: r.orgId,
    session_id: r.session_id,
    intent: engine.intent,
    sub_intent: engine.sub_intent,
    message: need(ctx, 'message'),
    contact: ctx.contact ?? { name: null, phone: null, email: null },
    trace_id: ctx.traceId,
    // The visitor's language (the reply's chosen language), even when a failed translation left the reply in English.
    language: need(ctx, 'language'),
    reply: reply.response,
    transcript: transcriptOf(ctx, reply.response),
    requested_at: new Date(deps.clock.now()).toISOString(),
  });
}
