import { chooseReplyLanguage } from '../src/language/reply-language.ts';
import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';

/**
 * docs/api.md#reply-language: the language the reply is delivered in. `spanish_toggle` asks for
 * Spanish on its own; with `spanish_support_enabled`, a message written in Spanish gets a Spanish
 * reply. A short turn ("sí", "ok", an email alone) keeps the language the session last replied in.
 */
export function chooseLanguage(ctx: Readonly<ChatContext>): ContextPatch {
  return {
    language: chooseReplyLanguage({
      message: need(ctx, 'message'),
      spanishToggle: ctx.request.spanish_toggle,
      spanishSupportEnabled: ctx.request.spanish_support_enabled,
      sessionLanguage: ctx.session?.language,
    }),
  };
}
