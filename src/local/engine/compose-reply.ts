import type { AdapterAction } from '../../../schemas/engine.schema.ts';
import type { RetrievalType } from '../../../schemas/chat-response.schema.ts';
import { english, type Knowledge } from '../knowledge/load-knowledge.ts';
import type { FaqDoc, Property } from '../knowledge/knowledge.schema.ts';
import { REPLY_SPECS, type ReplyName } from './reply-specs.ts';

export interface ReplyChoice {
  readonly name: ReplyName;
  /** For `rag` replies: the retrieved document. */
  readonly faqDoc?: FaqDoc;
  /** The message gives a phone number or an email address: the reply does not ask for them. */
  readonly contactGiven?: boolean;
}

export type DataItem = Readonly<Record<string, string>> & { readonly name: string };

export interface ComposedReply {
  readonly intent: string;
  readonly sub_intent: string;
  readonly retrieval_type: RetrievalType;
  readonly response: string;
  readonly follow_up: string;
  readonly agent_handoff: { readonly reason: string } | null;
  readonly data?: readonly DataItem[];
  readonly adapter_action?: AdapterAction;
}

function amenityItems(p: Property): DataItem[] {
  return p.amenities.map((a) => ({ name: a.name.en, hours: a.hours.en, fee: a.fee.en }));
}

/** The English reply for a choice, exactly as the engine sends it (before the service formats it). */
export function composeReply(choice: ReplyChoice, p: Property, k: Knowledge): ComposedReply {
  const spec = REPLY_SPECS[choice.name];
  const withContact = choice.contactGiven === true ? spec.contactGiven : undefined;
  const textOf = withContact?.text ?? spec.text;
  let response: string;
  if (spec.faq_topic) {
    if (!choice.faqDoc) throw new Error(`reply ${choice.name} needs a retrieved FAQ document`);
    response = english(choice.faqDoc.text);
  } else if (textOf) {
    const text = textOf(p, k);
    // Paragraphs are kept (the service shows neighborhood_summary verbatim, paragraphs and all).
    response = 'sentences' in text ? english(text.sentences) : text.paragraphs.map(english).join('\n\n');
  } else {
    throw new Error(`reply ${choice.name} has no text`);
  }
  return {
    intent: spec.intent,
    sub_intent: spec.sub_intent,
    retrieval_type: spec.retrieval_type,
    response,
    follow_up: k.followUp(withContact?.follow_up ?? spec.follow_up).en,
    agent_handoff: spec.handoff_reason ? { reason: spec.handoff_reason } : null,
    ...(choice.name === 'amenities' ? { data: amenityItems(p) } : {}),
    ...(spec.adapter_action ? { adapter_action: spec.adapter_action } : {}),
  };
}
