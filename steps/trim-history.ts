import type { ChatContext, ContextPatch } from '../src/pipeline/context.ts';

/** docs/api.md#limits: at most this many history messages are forwarded to the engine. */
export const ENGINE_HISTORY_LIMIT = 4;

/**
 * Processing rule 3: history is trimmed to its last 4 messages before the engine call. A request that sends no
 * history gets the session's cached messages instead (docs/api.md#session-cache).
 */
export function trimHistory(ctx: Readonly<ChatContext>): ContextPatch {
  const history = ctx.request.history.length > 0 ? ctx.request.history : (ctx.session?.messages ?? []);
  return { history: history.slice(-ENGINE_HISTORY_LIMIT) };
}
