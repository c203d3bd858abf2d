import type { CreateServiceMessageInput, MessageRole } from '../../schemas/graphql.schema.ts';
import { need, type ChatContext } from './context.ts';

/**
 * What every stored message of a turn holds: its conversation, role, text, trace and the
 * `clientMessageKey` derived from the turn's request id (the same on every attempt).
 */
export function baseMessageInput(ctx: Readonly<ChatContext>, requestId: string, role: MessageRole, content: string): CreateServiceMessageInput {
  const r = ctx.request;
  return {
    conversationId: r.conversation_id,
    propertyId: r.propertyId,
    orgId: r.orgId,
    sessionId: r.session_id,
    role,
    content,
    traceId: ctx.traceId,
    clientMessageKey: `${requestId}:${role === 'USER' ? 'question' : 'answer'}`,
    ...(r.entry_id !== undefined && { entryId: r.entry_id }),
  };
}

/** The `createServiceMessage` input for one side of the exchange (docs/contracts.md#graphql-store). */
export function messageInput(ctx: Readonly<ChatContext>, role: MessageRole, content: string): CreateServiceMessageInput {
  const reply = need(ctx, 'engineReply');
  return {
    ...baseMessageInput(ctx, need(ctx, 'requestId'), role, content),
    intent: reply.intent,
    subIntent: reply.sub_intent,
    retrievalType: reply.retrieval_type,
    language: role === 'USER' ? need(ctx, 'language') : need(ctx, 'reply').language,
  };
}
