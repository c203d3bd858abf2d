import type { ChatContext, ContextPatch } from '../src/pipeline/context.ts';

/** SPEC 8: at most this many history messages are forwarded to the engine. */
export const ENGINE_HISTORY_LIMIT = 4;

/** Rule 3: history is trimmed to its last 4 messages before the engine call. */
export function trimHistory(ctx: Readonly<ChatContext>): ContextPatch {
  return { history: ctx.request.history.slice(-ENGINE_HISTORY_LIMIT) };
}
