/**
 * A streamed reply the visitor stopped (docs/api.md#stopping-a-streamed-reply): the engine call was
 * aborted, so the pipeline ended early; the turn is still kept as the visitor saw it. The question
 * and the text delivered before the stop are stored (the answer marked `stopped`), with the same
 * `clientMessageKey`s a whole turn would have used (a retry stores nothing twice), and the session's
 * history gets both, so the engine's next call (for a caller that sends no history) sees what the
 * visitor saw. Nothing else of the turn runs: no handoff, no conversation update, and no reusable
 * answer in the session cache (a stopped reply is never given to a later question).
 */
import type { CreateServiceMessageInput, MessageRole } from '../../schemas/graphql.schema.ts';
import type { ChatContext } from '../pipeline/context.ts';
import type { Deps } from '../pipeline/ports.ts';
import { baseMessageInput } from '../pipeline/message-input.ts';
import { sessionKeyOf } from '../pipeline/session-key.ts';

/** A side of the stopped turn: the answer marked `stopped`, the language as far as it was known. */
function input(ctx: Readonly<ChatContext>, requestId: string, role: MessageRole, content: string): CreateServiceMessageInput {
  return {
    ...baseMessageInput(ctx, requestId, role, content),
    ...(ctx.language !== undefined && { language: ctx.language }),
    ...(role === 'ASSISTANT' && { stopped: true }),
  };
}

/**
 * Stores the question, then the delivered text as the answer (in that order: the conversation never
 * shows an answer first), and adds both to the session's history. `deps` are the chat's own: while
 * its turn holds the session, the history is written with the turn's end, before the next message reads it.
 */
export async function storeStoppedTurn(ctx: Readonly<ChatContext>, deps: Deps, delivered: string): Promise<void> {
  const requestId = ctx.requestId;
  const message = ctx.message;
  // Stopped before the request was received: nothing of it exists to keep.
  if (requestId === undefined || message === undefined) return;
  // Never throws (the cache is best-effort); without a language (stopped before it was chosen) there is no turn to keep.
  if (ctx.language !== undefined) await deps.cache.recordTurn(sessionKeyOf(ctx.request), { question: message, answer: delivered, language: ctx.language });
  const key = ctx.request.graphql_api_key;
  // Each call gets the store's own timeout, not what is left of the chat's deadline: the visitor
  // is not waiting for an answer any more, and what they saw must be kept.
  await deps.store.createMessage(input(ctx, requestId, 'USER', message), key);
  await deps.store.createMessage(input(ctx, requestId, 'ASSISTANT', delivered), key);
}
