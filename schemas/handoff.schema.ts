import { Type, type Static } from '@sinclair/typebox';

export const ContactSchema = Type.Object({
  name: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
});
export type Contact = Static<typeof ContactSchema>;

/** CONTRACTS 9: at most this many messages of the conversation go with a handoff. */
export const TRANSCRIPT_MAX_MESSAGES = 8;

/** One message of the conversation as the agent reads it, oldest first. */
export const TranscriptMessageSchema = Type.Object({
  role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
  content: Type.String(),
});
export type TranscriptMessage = Static<typeof TranscriptMessageSchema>;

/** CONTRACTS 3.3 and 9: POST {HANDOFF_URL}/handoff -> 202 */
export const HandoffRequestSchema = Type.Object({
  /** CONTRACTS 6.3: a UUID, also sent as the `Idempotency-Key` header, the same on every attempt. */
  handoff_id: Type.String(),
  conversation_id: Type.String(),
  propertyId: Type.String(),
  orgId: Type.String(),
  session_id: Type.String(),
  intent: Type.String(),
  sub_intent: Type.String(),
  /** The visitor's message of this turn. */
  message: Type.String(),
  contact: ContactSchema,
  trace_id: Type.String(),
  /** The language the visitor was answered in (`en`, `es`). */
  language: Type.String(),
  /** What the visitor was told in this turn. */
  reply: Type.String(),
  /** The conversation's last messages known to the service (at most 8, oldest first), this turn included. */
  transcript: Type.Array(TranscriptMessageSchema, { maxItems: TRANSCRIPT_MAX_MESSAGES }),
  /** ISO 8601, when the handoff was decided. */
  requested_at: Type.String(),
});
export type HandoffRequest = Static<typeof HandoffRequestSchema>;

/** CONTRACTS 6.3: what the outbox keeps and delivers (the body above). */
export type Handoff = HandoffRequest;
