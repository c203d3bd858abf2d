import { Type, type Static } from '@sinclair/typebox';

export const ContactSchema = Type.Object({
  name: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
});
export type Contact = Static<typeof ContactSchema>;

/** docs/contracts.md#handoff-receiver: at most this many messages of the conversation go with a handoff. */
export const TRANSCRIPT_MAX_MESSAGES = 8;

/** One message of the conversation as the agent reads it, oldest first. */
export const TranscriptMessageSchema = Type.Object({
  role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
  content: Type.String(),
});
export type TranscriptMessage = Static<typeof TranscriptMessageSchema>;

/** docs/contracts.md#handoff-receiver: what every handoff body has carried. */
const handoffCore = {
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
};

/** docs/contracts.md#handoff-receiver: what an agent needs besides. */
const handoffForAgent = {
  /** docs/operations.md#handoffs-and-dead-letters: a UUID, also sent as the `Idempotency-Key` header, the same on every attempt. */
  handoff_id: Type.String(),
  /** The visitor's language (`en`, `es`): the one chosen for the reply, even if its translation failed. */
  language: Type.String(),
  /** What the visitor was told in this turn. */
  reply: Type.String(),
  /** The conversation's last messages known to the service (at most 8, oldest first), this turn included. */
  transcript: Type.Array(TranscriptMessageSchema, { maxItems: TRANSCRIPT_MAX_MESSAGES }),
  /** ISO 8601, when the handoff was decided. */
  requested_at: Type.String(),
};

/** docs/contracts.md#handoff-receiver: POST {HANDOFF_URL}/handoff -> 202, as the service sends it. */
export const HandoffRequestSchema = Type.Object({ ...handoffForAgent, ...handoffCore });
export type HandoffRequest = Static<typeof HandoffRequestSchema>;

/**
 * What a receiver accepts: the docs/contracts.md#handoff-receiver members may be missing from a handoff written to an
 * outbox by a version before them, which is still delivered after an upgrade.
 */
export const HandoffReceivedSchema = Type.Object({
  ...handoffCore,
  handoff_id: Type.Optional(handoffForAgent.handoff_id),
  language: Type.Optional(handoffForAgent.language),
  reply: Type.Optional(handoffForAgent.reply),
  transcript: Type.Optional(handoffForAgent.transcript),
  requested_at: Type.Optional(handoffForAgent.requested_at),
});
export type HandoffReceived = Static<typeof HandoffReceivedSchema>;

/** docs/operations.md#handoffs-and-dead-letters: what the outbox keeps and delivers (the body above). */
export type Handoff = HandoffRequest;
