import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';
import { messageInput } from '../src/pipeline/message-input.ts';

/** Processing rule 7: the question is stored with `createServiceMessage`. */
export async function storeQuestion(ctx: Readonly<ChatContext>, deps: Deps): Promise<ContextPatch> {
  const input = messageInput(ctx, 'USER', need(ctx, 'message'));
  const stored = await deps.store.createMessage(input, ctx.request.graphql_api_key, ctx.deadlineAt);
  return { questionId: stored.id };
}
