import { need, type ChatContext } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';

/** Rule 8: the agent handoff is started in the background; the reply never waits for it. */
export function startHandoff(ctx: Readonly<ChatContext>, deps: Deps): void {
  if (!ctx.agentHandoff) return;
  const reply = need(ctx, 'engineReply');
  const r = ctx.request;
  deps.handoff.dispatch({
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
