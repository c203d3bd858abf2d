import type { AdapterAction } from '../../../schemas/engine.schema.ts';
import type { RetrievalType } from '../../../schemas/chat-response.schema.ts';
import type { Knowledge } from '../knowledge/load-knowledge.ts';
import type { FollowUp, Property, Sentences } from '../knowledge/knowledge.schema.ts';

/** Every reply the reference engine can give; a `rag` reply also names its FAQ document. */
export const REPLY_NAMES = [
  'office_hours', 'pet_policy', 'parking', 'amenities', 'pricing', 'availability', 'floor_plans',
  'tour_slots', 'tour_disabled', 'neighborhood_summary', 'nearby_places', 'maintenance',
  'emergency_maintenance', 'complaint_filing', 'customer_info', 'contact', 'agent_hand_off',
  'greeting', 'farewell', 'fallback',
] as const;
export type ReplyName = (typeof REPLY_NAMES)[number];

/** The text of a reply: sentences (one paragraph) or paragraphs of sentences. */
export type ReplyText = { readonly sentences: Sentences } | { readonly paragraphs: readonly Sentences[] };

export interface ReplySpec {
  readonly intent: string;
  readonly sub_intent: string;
  readonly retrieval_type: RetrievalType;
  readonly follow_up: FollowUp;
  readonly adapter_action?: AdapterAction;
  /** `rag` replies: the FAQ topic searched. */
  readonly faq_topic?: 'pricing' | 'maintenance';
  readonly handoff_reason?: string;
  /** Not for `rag` replies (their text is the retrieved document). */
  text?(p: Property, k: Knowledge): ReplyText;
  /**
   * When the message itself gives a phone number or an email address: the text and follow-up that
   * do not ask for them again.
   */
  readonly contactGiven?: { readonly follow_up?: FollowUp; text?(p: Property, k: Knowledge): ReplyText };
}

const sentences = (s: Sentences): ReplyText => ({ sentences: s });

export const REPLY_SPECS: Readonly<Record<ReplyName, ReplySpec>> = {
  office_hours: { intent: 'property_info', sub_intent: 'office_hours', retrieval_type: 'fixed', follow_up: 'tour', text: (p) => sentences(p.texts.office_hours) },
  pet_policy: { intent: 'policies', sub_intent: 'pet_policy', retrieval_type: 'fixed', follow_up: 'pets', text: (p) => sentences(p.texts.pet_policy) },
  parking: { intent: 'policies', sub_intent: 'parking', retrieval_type: 'fixed', follow_up: 'anything_else', text: (p) => sentences(p.texts.parking) },
  amenities: { intent: 'property_info', sub_intent: 'amenities', retrieval_type: 'node', follow_up: 'amenities', text: (p, k) => sentences(k.template('amenities_intro', p)) },
  pricing: { intent: 'leasing', sub_intent: 'pricing', retrieval_type: 'rag', follow_up: 'pricing', faq_topic: 'pricing' },
  availability: { intent: 'leasing', sub_intent: 'availability', retrieval_type: 'adapter', adapter_action: 'units', follow_up: 'availability', text: (p, k) => sentences(k.template('availability', p)) },
  floor_plans: { intent: 'leasing', sub_intent: 'floor_plans', retrieval_type: 'adapter', adapter_action: 'floor_plans', follow_up: 'floor_plans', text: (p, k) => sentences(k.template('floor_plans', p)) },
  tour_slots: { intent: 'leasing', sub_intent: 'tour_scheduling', retrieval_type: 'adapter', adapter_action: 'tour_slots', follow_up: 'tour_slots', text: (p, k) => sentences(k.template('tour_slots', p)) },
  tour_disabled: { intent: 'leasing', sub_intent: 'tour_scheduling', retrieval_type: 'fixed', follow_up: 'anything_else', text: (p, k) => sentences(k.template('tour_disabled', p)) },
  neighborhood_summary: { intent: 'property_info', sub_intent: 'neighborhood_summary', retrieval_type: 'node', follow_up: 'neighborhood', text: (p) => ({ paragraphs: p.neighborhood }) },
  nearby_places: { intent: 'property_info', sub_intent: 'nearby_places', retrieval_type: 'adapter', adapter_action: 'neighborhood', follow_up: 'nearby', text: (p, k) => sentences(k.template('nearby', p)) },
  maintenance: { intent: 'resident_services', sub_intent: 'maintenance_request', retrieval_type: 'rag', follow_up: 'maintenance', faq_topic: 'maintenance' },
  emergency_maintenance: { intent: 'resident_services', sub_intent: 'emergency_maintenance', retrieval_type: 'fixed', follow_up: 'emergency', text: (p, k) => sentences(k.template('emergency_maintenance', p)) },
  complaint_filing: {
    intent: 'resident_services', sub_intent: 'complaint_filing', retrieval_type: 'fixed', follow_up: 'complaint', text: (p, k) => sentences(k.template('complaint_filing', p)),
    contactGiven: { text: (p, k) => sentences(k.template('complaint_filing_with_contact', p)) },
  },
  customer_info: { intent: 'contact', sub_intent: 'customer_info', retrieval_type: 'fixed', follow_up: 'anything_else', text: (p, k) => sentences(k.template('customer_info', p)) },
  contact: { intent: 'contact', sub_intent: 'contact', retrieval_type: 'fixed', follow_up: 'contact', text: (p, k) => sentences(k.template('contact', p)) },
  agent_hand_off: {
    intent: 'agent_handoff', sub_intent: 'agent_hand_off', retrieval_type: 'fixed', follow_up: 'contact_details', handoff_reason: 'visitor asked to talk to a person', text: (p, k) => sentences(k.template('agent_hand_off', p)),
    contactGiven: { follow_up: 'contact_noted' },
  },
  greeting: { intent: 'greeting', sub_intent: 'greeting', retrieval_type: 'fixed', follow_up: 'greeting', text: (p, k) => sentences(k.template('greeting', p)) },
  farewell: { intent: 'greeting', sub_intent: 'farewell', retrieval_type: 'fixed', follow_up: 'none', text: (p, k) => sentences(k.template('farewell', p)) },
  fallback: { intent: 'fallback', sub_intent: 'fallback', retrieval_type: 'fixed', follow_up: 'rephrase', text: (p, k) => sentences(k.template('fallback', p)) },
};
