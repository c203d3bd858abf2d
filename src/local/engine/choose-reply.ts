import { placeKeywords } from '../knowledge/place-keywords.ts';
import type { Property } from '../knowledge/knowledge.schema.ts';
import type { ReplyChoice } from './compose-reply.ts';
import type { FaqRetriever } from './faq-retriever.ts';
import { isFarewell } from './message-keywords.ts';
import type { ReplyName } from './reply-specs.ts';

/** Labels of data/intents.json whose reply is the reply of the same name. */
const DIRECT: ReadonlySet<string> = new Set<ReplyName>([
  'office_hours', 'pet_policy', 'parking', 'amenities', 'availability', 'floor_plans',
  'emergency_maintenance', 'complaint_filing', 'customer_info', 'contact', 'agent_hand_off', 'fallback',
]);
const ROUTED = new Set(['pricing', 'maintenance', 'tour_scheduling', 'neighborhood', 'greeting']);

/** Fails at start-up when the data set has a label that no reply handles. */
export function assertKnownLabels(labels: readonly string[]): void {
  const unknown = labels.filter((l) => !DIRECT.has(l) && !ROUTED.has(l));
  if (unknown.length > 0) throw new Error(`intents.json labels without a reply: ${unknown.join(', ')}`);
}

export interface ChoiceContext {
  readonly message: string;
  readonly property: Property;
  readonly tourScheduleEnabled: boolean;
  readonly retriever: FaqRetriever;
}

export interface Choice extends ReplyChoice {
  readonly faqScore?: number;
  readonly places?: readonly string[];
}

/** From a classified label to one concrete reply (retrieval, sub-intent refinements). */
export function chooseReply(label: string, ctx: ChoiceContext): Choice {
  switch (label) {
    case 'pricing':
    case 'maintenance': {
      const { doc, score } = ctx.retriever.retrieve(ctx.property, label, ctx.message);
      return { name: label, faqDoc: doc, faqScore: score };
    }
    case 'tour_scheduling':
      return { name: ctx.tourScheduleEnabled ? 'tour_slots' : 'tour_disabled' };
    case 'neighborhood': {
      // A question naming kinds of places is answered by the service from the property API;
      // a general one gets the written neighborhood summary.
      const places = placeKeywords(ctx.message);
      return places.length > 0 ? { name: 'nearby_places', places } : { name: 'neighborhood_summary' };
    }
    case 'greeting':
      return { name: isFarewell(ctx.message) ? 'farewell' : 'greeting' };
    default:
      return { name: DIRECT.has(label) ? (label as ReplyName) : 'fallback' };
  }
}
