import { need, type ChatContext } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';
import { sessionKeyOf } from '../src/pipeline/session-key.ts';

/** docs/api.md#session-cache: the question and the reply delivered are kept for the session (last 8 messages, TTL). */
export async function rememberTurn(ctx: Readonly<ChatContext>, deps: Deps): Promise<void> {
  const reply = need(ctx, 'reply');
  await deps.cache.recordTurn(sessionKeyOf(ctx.request), {
    question: need(ctx, 'message'),
    answer: reply.response,
    reply: need(ctx, 'engineReply'),
    language: reply.language,
  });
}
