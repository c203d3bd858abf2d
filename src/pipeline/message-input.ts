import type { CreateServiceMessageInput, MessageRole } from '../../schemas/graphql.schema.ts';
import { need, type ChatContext } from './context.ts';

/** The `createServiceMessage` input for one side of the exchange (docs/contracts.md#graphql-store). */
export function messageInput(ctx: Readonly<ChatContext>, role: MessageRole, content: string): CreateServiceMessageInput {
  const r = ctx.request;
  const reply = need(ctx, 'engineReply');
  return {
    conversationId: r.conversation_id,
    propertyId: r.propertyId,
    orgId: r.orgId,
    sessionId: r.session_id,
    role,
    content,
    traceId: ctx.traceId,
    clientMessageKey: `${need(ctx, 'requestId')}:${role === 'USER' ? 'question' : 'answer'}`,
    intent: reply.intent,
    subIntent: reply.sub_intent,
    retrievalType: reply.retrieval_type,
    language: role === 'USER' ? need(ctx, 'language') : need(ctx, 'reply').language,
    ...(r.entry_id !== undefined && { entryId: r.entry_id }),
  };
}
