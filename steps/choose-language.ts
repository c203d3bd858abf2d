import type { ChatContext, ContextPatch } from '../src/pipeline/context.ts';

/**
 * SPEC 1 item 6, CONTRACTS 3.2: the language the reply is delivered in. `spanish_toggle` asks for
 * Spanish on its own.
 */
export function chooseLanguage(ctx: Readonly<ChatContext>): ContextPatch {
  return { language: ctx.request.spanish_toggle ? 'es' : 'en' };
}
