import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';
import { messageInput } from '../src/pipeline/message-input.ts';

/** Processing rule 9: the answer, as delivered, is stored with `createServiceMessage`; its id is `message_id`. */
export async function storeAnswer(ctx: Readonly<ChatContext>, deps: Deps): Promise<ContextPatch> {
  const input = messageInput(ctx, 'ASSISTANT', need(ctx, 'reply').response);
  const stored = await deps.store.createMessage(input, ctx.request.graphql_api_key, ctx.deadlineAt);
  return { answerId: stored.id };
}
