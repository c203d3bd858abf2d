import type { UpdateServiceConversationInput } from '../schemas/graphql.schema.ts';
import { need, type ChatContext } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';

/**
 * Processing rule 6 (second half, docs/contracts.md#graphql-store): `updateServiceConversation` records the extracted contact
 * and/or the handoff request. No call is made when there is neither.
 */
export function updateConversation(ctx: Readonly<ChatContext>, deps: Deps): Promise<void> | undefined {
  const contact = ctx.contact ?? null;
  const handoff = ctx.agentHandoff ?? null;
  // Nothing to record (most chats): answered at once, without a promise.
  if (contact === null && handoff === null) return undefined;
  const input: UpdateServiceConversationInput = {
    conversationId: ctx.request.conversation_id,
    lastIntent: need(ctx, 'engineReply').intent,
    ...(contact?.name != null && { contactName: contact.name }),
    ...(contact?.phone != null && { contactPhone: contact.phone }),
    ...(contact?.email != null && { contactEmail: contact.email }),
    ...(handoff !== null && { agentHandoff: true }),
  };
  return deps.store.updateConversation(input, ctx.request.graphql_api_key, ctx.deadlineAt).then(() => undefined);
}
