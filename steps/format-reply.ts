import { concise, formatByRetrievalType } from '../src/reply/reply-styles.ts';
import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';

/** Processing rule 5: the reply is formatted by retrieval type (verbose, Markdown or concise; docs/api.md#reply-formatting). */
export function formatReply(ctx: Readonly<ChatContext>): ContextPatch {
  const reply = need(ctx, 'engineReply');
  return {
    reply: {
      response: formatByRetrievalType(reply),
      follow_up: concise(reply.follow_up ?? ''),
      // The language the engine wrote in; only an explicit `es` counts as Spanish (docs/api.md#reply-language).
      language: reply.language === 'es' ? 'es' : 'en',
      not_available: reply.not_available ?? [],
    },
  };
}
