import type { Language } from '../schemas/engine.schema.ts';
import { DownstreamError } from '../src/errors.ts';
import { need, type ChatContext, type ContextPatch, type FormattedReply } from '../src/pipeline/context.ts';
import { degradableDeadline } from '../src/pipeline/degradable-deadline.ts';
import type { Deps } from '../src/pipeline/ports.ts';

/**
 * docs/api.md#reply-language: when the reply should be Spanish and the text is English, the
 * formatted `response` and `follow_up` are translated (one call each, when not empty). A failed
 * translation never fails the chat: the English reply goes out with `language` `en`. Only the
 * party's failure (a DownstreamError) degrades the reply; a request this service could not build
 * (OutboundRequestError) or any other defect of its own is a 500, never blamed on translate.
 */
export function translateReply(ctx: Readonly<ChatContext>, deps: Deps): ContextPatch | Promise<ContextPatch> {
  const reply = need(ctx, 'reply');
  const target = need(ctx, 'language');
  // Most replies are already in their language: answered at once, without a promise.
  if (target === reply.language) return {};
  return translated(ctx, deps, reply, target);
}

async function translated(ctx: Readonly<ChatContext>, deps: Deps, reply: FormattedReply, target: Language): Promise<ContextPatch> {
  const deadlineAt = degradableDeadline(ctx.deadlineAt);
  const translate = (text: string) =>
    text === '' ? Promise.resolve('') : deps.translator.translate(text, reply.language, target, deadlineAt);
  try {
    const [response, follow_up] = await Promise.all([translate(reply.response), translate(reply.follow_up)]);
    return { reply: { ...reply, response, follow_up, language: target } };
  } catch (err) {
    if (!(err instanceof DownstreamError)) throw err;
    deps.logger.warn(
      { trace_id: ctx.traceId, reason: (err as Error).message, target },
      'translation failed; replying in the original language',
    );
    return {};
  }
}
