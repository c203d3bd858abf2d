import type { EngineReply, EngineRequest } from '../../../schemas/engine.schema.ts';
import type { Knowledge } from '../knowledge/load-knowledge.ts';
import type { Property } from '../knowledge/knowledge.schema.ts';
import { chooseReply } from './choose-reply.ts';
import { composeReply } from './compose-reply.ts';
import { givesContact } from './contact-given.ts';
import type { FaqRetriever } from './faq-retriever.ts';
import type { IntentClassifier } from './intent-classifier.ts';
import { asksForPerson, bedroomCount } from './message-keywords.ts';

export interface EngineDeps {
  readonly classifier: IntentClassifier;
  readonly knowledge: Knowledge;
  readonly retriever: FaqRetriever;
}

const BEDROOM_TOPICS = new Set(['availability', 'floor_plans', 'pricing']);
const CONTACT_LABELS = new Set(['customer_info', 'contact']);

/** A bedroom count the property has neither a unit nor a floor plan for. */
function missingBedrooms(p: Property, bedrooms: number | undefined): string[] {
  if (bedrooms === undefined) return [];
  const offered = [...p.units, ...p.floor_plans].some((u) => u.bedrooms === bedrooms);
  if (offered) return [];
  return [bedrooms === 0 ? 'studio' : `${bedrooms} bedroom`];
}

/**
 * docs/contracts.md#engine: classify the message, pick and compose the reply, and fill every member.
 * Always English (`language: "en"`): the service translates when the visitor needs Spanish.
 */
export function answerQuery(req: EngineRequest, deps: EngineDeps): EngineReply {
  const property = deps.knowledge.propertyFor(req.propertyId);
  const message = req.message.trim();
  const classification = deps.classifier.classify(message);
  const label = CONTACT_LABELS.has(classification.label) && asksForPerson(message) ? 'agent_hand_off' : classification.label;
  const choice = chooseReply(label, {
    message, property, tourScheduleEnabled: req.tourScheduleEnabled, retriever: deps.retriever,
  });
  const reply = composeReply({ ...choice, contactGiven: givesContact(message) }, property, deps.knowledge);

  const bedrooms = bedroomCount(message);
  const asksBedrooms = BEDROOM_TOPICS.has(reply.sub_intent) && bedrooms !== undefined;
  return {
    response: reply.response,
    intent: reply.intent,
    sub_intent: reply.sub_intent,
    retrieval_type: reply.retrieval_type,
    orchestrator_level1_details: {
      classifier: 'natural.BayesClassifier',
      label: classification.label,
      confidence: Math.round(classification.confidence * 1000) / 1000,
      in_domain: classification.inDomain,
    },
    orchestrator_level2_details: {
      property_id: property.propertyId,
      reply: choice.name,
      ...(choice.faqDoc ? { document: choice.faqDoc.id, score: Math.round((choice.faqScore ?? 0) * 1000) / 1000 } : {}),
    },
    keyword_cache: {
      ...(asksBedrooms ? { bedrooms } : {}),
      ...(choice.places ? { places: choice.places } : {}),
    },
    not_available: asksBedrooms ? missingBedrooms(property, bedrooms) : [],
    context: null,
    follow_up: reply.follow_up,
    memory: null,
    agent_handoff: reply.agent_handoff,
    language: 'en',
    ...(reply.data ? { data: reply.data.map((d) => ({ ...d })) } : {}),
    ...(reply.adapter_action ? { adapter_action: reply.adapter_action } : {}),
  };
}
