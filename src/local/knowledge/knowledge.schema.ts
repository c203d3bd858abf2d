import { Type, type Static } from '@sinclair/typebox';

/** One sentence in both languages; the translator's phrase table is built from these pairs. */
export const BiSchema = Type.Object({ en: Type.String(), es: Type.String() });
export type Bi = Static<typeof BiSchema>;
const Sentences = Type.Array(BiSchema, { minItems: 1 });
export type Sentences = readonly Bi[];

const Num = Type.Number({ minimum: 0 });

export const AmenitySchema = Type.Object({ name: BiSchema, hours: BiSchema, fee: BiSchema });
export type Amenity = Static<typeof AmenitySchema>;

export const FAQ_TOPICS = ['pricing', 'maintenance'] as const;
export type FaqTopic = (typeof FAQ_TOPICS)[number];
export const FaqDocSchema = Type.Object({
  id: Type.String(),
  topic: Type.Union(FAQ_TOPICS.map((t) => Type.Literal(t))),
  text: Sentences,
});
export type FaqDoc = Static<typeof FaqDocSchema>;

export const PropertySchema = Type.Object({
  propertyId: Type.String({ pattern: '^[0-9]{19}$' }),
  name: Type.String(),
  address: Type.String(),
  phone: Type.String(),
  emergencyPhone: Type.String(),
  email: Type.String(),
  timeZone: Type.String(),
  texts: Type.Object({ office_hours: Sentences, pet_policy: Sentences, parking: Sentences }),
  amenities: Type.Array(AmenitySchema, { minItems: 1 }),
  /** Paragraphs of sentences. */
  neighborhood: Type.Array(Sentences, { minItems: 1 }),
  faq: Type.Array(FaqDocSchema, { minItems: 1 }),
  units: Type.Array(Type.Object({
    id: Type.String(), name: Type.String(), bedrooms: Num, bathrooms: Num, sqft: Num, rent: Num,
    available_in_days: Type.Integer({ minimum: 0 }),
  })),
  floor_plans: Type.Array(Type.Object({
    id: Type.String(), name: Type.String(), bedrooms: Num, bathrooms: Num, sqft: Num,
    min_rent: Num, max_rent: Num,
  })),
  tours: Type.Object({
    days_ahead: Type.Integer({ minimum: 1, maximum: 31 }),
    closed_weekdays: Type.Array(Type.Integer({ minimum: 0, maximum: 6 })),
    start_hours: Type.Array(Type.Integer({ minimum: 0, maximum: 23 })),
    duration_minutes: Type.Integer({ minimum: 5, maximum: 240 }),
  }),
});
export type Property = Static<typeof PropertySchema>;

export const PropertiesFileSchema = Type.Object({
  properties: Type.Array(PropertySchema, { minItems: 1 }),
});

export const REPLY_TEMPLATES = [
  'greeting', 'farewell', 'fallback', 'amenities_intro', 'availability', 'floor_plans', 'tour_slots',
  'tour_disabled', 'nearby', 'emergency_maintenance', 'complaint_filing', 'complaint_filing_with_contact',
  'customer_info', 'contact', 'agent_hand_off',
] as const;
export type ReplyTemplate = (typeof REPLY_TEMPLATES)[number];

export const FOLLOW_UPS = [
  'anything_else', 'tour', 'pets', 'amenities', 'pricing', 'availability', 'floor_plans', 'tour_slots',
  'neighborhood', 'nearby', 'maintenance', 'emergency', 'complaint', 'contact_details', 'contact_noted',
  'contact', 'greeting', 'rephrase', 'none',
] as const;
export type FollowUp = (typeof FOLLOW_UPS)[number];

export const RepliesFileSchema = Type.Object({
  follow_ups: Type.Object(Object.fromEntries(FOLLOW_UPS.map((k) => [k, BiSchema])) as Record<FollowUp, typeof BiSchema>),
  replies: Type.Object(Object.fromEntries(REPLY_TEMPLATES.map((k) => [k, Sentences])) as Record<ReplyTemplate, typeof Sentences>),
  glossary: Type.Object({
    terms: Type.Record(Type.String(), Type.String()),
    name_prefixes: Type.Record(Type.String(), Type.String()),
  }),
});
export type RepliesFile = Static<typeof RepliesFileSchema>;
