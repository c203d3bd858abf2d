import type { Knowledge } from '../knowledge/load-knowledge.ts';
import { composeReply, type ComposedReply } from './compose-reply.ts';
import { REPLY_NAMES, REPLY_SPECS, type ReplyName } from './reply-specs.ts';

export interface CatalogueEntry {
  readonly propertyId: string;
  readonly reply: ReplyName;
  /** FAQ document id, for `rag` replies. */
  readonly document?: string;
  readonly composed: ComposedReply;
}

/**
 * Every reply the reference engine can give, for every property (each `rag` reply once per FAQ
 * document of its topic). The translator tests walk this list: nothing the engine says may be
 * left untranslated.
 */
export function replyCatalogue(k: Knowledge): CatalogueEntry[] {
  return k.properties.flatMap((p) =>
    REPLY_NAMES.flatMap((name): CatalogueEntry[] => {
      const topic = REPLY_SPECS[name].faq_topic;
      if (topic === undefined) return [{ propertyId: p.propertyId, reply: name, composed: composeReply({ name }, p, k) }];
      return p.faq
        .filter((d) => d.topic === topic)
        .map((d) => ({ propertyId: p.propertyId, reply: name, document: d.id, composed: composeReply({ name, faqDoc: d }, p, k) }));
    }),
  );
}
