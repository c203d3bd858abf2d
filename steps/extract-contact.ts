import type { CountryCode } from 'libphonenumber-js';
import { extractContact as findContact } from '../src/contacts/find-contact.ts';
import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';
import { CONTACT_SUB_INTENTS } from '../src/pipeline/rules.ts';

/**
 * Processing rule 6: for contact-related sub-intents, the visitor's name, phone (E.164) and email are taken
 * from the message. `contact` is null when the sub-intent does not ask for it or nothing was found.
 * Asynchronous, when it looks, only because the finders' libraries are loaded on first use (src/contacts).
 */
export function extractContact(ctx: Readonly<ChatContext>, deps: Deps): ContextPatch | Promise<ContextPatch> {
  // Most sub-intents ask for no contact: answered at once, without a promise.
  if (!CONTACT_SUB_INTENTS.has(need(ctx, 'engineReply').sub_intent)) return { contact: null };
  return contactIn(ctx, deps);
}

async function contactIn(ctx: Readonly<ChatContext>, deps: Deps): Promise<ContextPatch> {
  const found = await findContact(need(ctx, 'message'), { defaultRegion: deps.settings.defaultPhoneRegion as CountryCode });
  const any = found.name !== null || found.phone !== null || found.email !== null;
  return { contact: any ? found : null };
}
