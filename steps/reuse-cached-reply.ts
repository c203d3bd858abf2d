import { findReusableAnswer } from '../src/cache/reuse-policy.ts';
import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';

/**
 * docs/api.md#session-cache: a question that is the same as an earlier one of this session (similarity >= 0.98,
 * and no difference in numbers, negations, dates or unit types) reuses that earlier `fixed` or `rag`
 * reply, and the engine is not called.
 */
export function reuseCachedReply(ctx: Readonly<ChatContext>, deps: Deps): ContextPatch {
  const hit = findReusableAnswer(ctx.session ?? undefined, need(ctx, 'message'), deps.settings.cacheRetrieveThreshold, {
    language: need(ctx, 'language'),
  });
  return hit === undefined ? {} : { engineReply: hit.reply, replySource: 'cache' };
}
