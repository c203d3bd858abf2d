import { need, type ChatContext } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';

/**
 * Processing rule 8 and docs/operations.md#handoffs-and-dead-letters: the handoff is written to the durable outbox before the reply goes
 * out (the step waits for that write only: a SQLite insert or a Redis job add); delivery runs in
 * the background. A chat without a handoff touches no outbox at all.
 */
export function startHandoff(ctx: Readonly<ChatContext>, deps: Deps): Promise<void> | undefined {
  // No handoff (most chats): answered at once, without a promise.
  if (!ctx.agentHandoff) return undefined;
  const reply = need(ctx, 'engineReply');
  const r = ctx.request;
  return deps.handoff.enqueue({
    handoff_id: deps.newId(),
    conversation_id: r.conversation_id,
    propertyId: r.propertyId,
    orgId: r.orgId,
    session_id: r.session_id,
    intent: reply.intent,
    sub_intent: reply.sub_intent,
    message: need(ctx, 'message'),
    contact: ctx.contact ?? { name: null, phone: null, email: null },
    trace_id: ctx.traceId,
  });
}
