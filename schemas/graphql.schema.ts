import { Type, type Static } from '@sinclair/typebox';

export const MessageRoleSchema = Type.Union([Type.Literal('USER'), Type.Literal('ASSISTANT')]);
export type MessageRole = Static<typeof MessageRoleSchema>;

/** CONTRACTS 3.4 CreateServiceMessageInput */
export const CreateServiceMessageInputSchema = Type.Object({
  conversationId: Type.String(),
  propertyId: Type.String(),
  orgId: Type.String(),
  sessionId: Type.String(),
  role: MessageRoleSchema,
  content: Type.String(),
  traceId: Type.String(),
  clientMessageKey: Type.String(),
  intent: Type.Optional(Type.String()),
  subIntent: Type.Optional(Type.String()),
  retrievalType: Type.Optional(Type.String()),
  language: Type.Optional(Type.String()),
  entryId: Type.Optional(Type.String()),
});
export type CreateServiceMessageInput = Static<typeof CreateServiceMessageInputSchema>;

/** CONTRACTS 3.4 UpdateServiceConversationInput */
export const UpdateServiceConversationInputSchema = Type.Object({
  conversationId: Type.String(),
  contactName: Type.Optional(Type.String()),
  contactPhone: Type.Optional(Type.String()),
  contactEmail: Type.Optional(Type.String()),
  lastIntent: Type.Optional(Type.String()),
  agentHandoff: Type.Optional(Type.Boolean()),
});
export type UpdateServiceConversationInput = Static<typeof UpdateServiceConversationInputSchema>;

export const ServiceMessageSchema = Type.Object({
  /** Digits: it becomes the chat response's `message_id`. */
  id: Type.String({ pattern: '^[0-9]+$' }),
  conversationId: Type.String(),
  role: MessageRoleSchema,
  content: Type.String(),
  createdAt: Type.String(),
});
export type ServiceMessage = Static<typeof ServiceMessageSchema>;

export const ServiceConversationSchema = Type.Object({
  id: Type.String(),
  contactName: Type.Union([Type.String(), Type.Null()]),
  contactPhone: Type.Union([Type.String(), Type.Null()]),
  contactEmail: Type.Union([Type.String(), Type.Null()]),
  lastIntent: Type.Union([Type.String(), Type.Null()]),
  agentHandoff: Type.Union([Type.Boolean(), Type.Null()]),
  updatedAt: Type.String(),
});
export type ServiceConversation = Static<typeof ServiceConversationSchema>;
