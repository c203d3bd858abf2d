import { Type, type Static } from '@sinclair/typebox';

export const ContactSchema = Type.Object({
  name: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
});
export type Contact = Static<typeof ContactSchema>;

/** docs/contracts.md#handoff-receiver: POST {HANDOFF_URL}/handoff -> 202 */
export const HandoffRequestSchema = Type.Object({
  conversation_id: Type.String(),
  propertyId: Type.String(),
  orgId: Type.String(),
  session_id: Type.String(),
  intent: Type.String(),
  sub_intent: Type.String(),
  message: Type.String(),
  contact: ContactSchema,
  trace_id: Type.String(),
});
export type HandoffRequest = Static<typeof HandoffRequestSchema>;

/**
 * docs/operations.md#handoffs-and-dead-letters: what the outbox keeps and delivers: the handoff body above plus `handoff_id` (a UUID), which
 * is also sent as the `Idempotency-Key` header, the same on every attempt.
 */
export type Handoff = HandoffRequest & { readonly handoff_id: string };
