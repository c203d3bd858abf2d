import { Type, type Static } from '@sinclair/typebox';

/*
 * The GraphQL store's contract (docs/contracts.md#graphql-store). Each shape carries its GraphQL
 * name as `title`, and members that are GraphQL `ID`s carry `graphqlType: 'ID'`, so that the SDL in
 * docs/contracts/graphql-store.graphql is generated from these schemas (npm run docs:contracts).
 */
const Id = (description?: string) => Type.String({ graphqlType: 'ID', ...(description !== undefined && { description }) });

export const MessageRoleSchema = Type.Union([Type.Literal('USER'), Type.Literal('ASSISTANT')], { title: 'MessageRole' });
export type MessageRole = Static<typeof MessageRoleSchema>;

export const CreateServiceMessageInputSchema = Type.Object(
  {
    conversationId: Id(),
    propertyId: Id(),
    orgId: Id(),
    sessionId: Type.String(),
    role: MessageRoleSchema,
    content: Type.String({ description: 'The question as sent (trimmed), or the reply as delivered' }),
    traceId: Type.String({ description: 'The chat\'s trace id (32 lowercase hex)' }),
    clientMessageKey: Type.String({
      description: '"<request_id>:question" or "<request_id>:answer". The store must make the call idempotent on it: the same key again returns the message already stored and stores nothing',
    }),
    intent: Type.Optional(Type.String()),
    subIntent: Type.Optional(Type.String()),
    retrievalType: Type.Optional(Type.String()),
    language: Type.Optional(Type.String()),
    entryId: Type.Optional(Type.String()),
    stopped: Type.Optional(Type.Boolean({
      description: 'Sent (true) only for the answer of a reply the visitor stopped: `content` is the text delivered before the stop',
    })),
  },
  { title: 'CreateServiceMessageInput' },
);
export type CreateServiceMessageInput = Static<typeof CreateServiceMessageInputSchema>;

export const UpdateServiceConversationInputSchema = Type.Object(
  {
    conversationId: Id(),
    contactName: Type.Optional(Type.String()),
    contactPhone: Type.Optional(Type.String({ description: 'E.164, e.g. +14155552671' })),
    contactEmail: Type.Optional(Type.String()),
    lastIntent: Type.Optional(Type.String()),
    agentHandoff: Type.Optional(Type.Boolean()),
  },
  { title: 'UpdateServiceConversationInput' },
);
export type UpdateServiceConversationInput = Static<typeof UpdateServiceConversationInputSchema>;

export const ServiceMessageSchema = Type.Object(
  {
    /** Digits: it becomes the chat response's `message_id`. */
    id: Type.String({ graphqlType: 'ID', pattern: '^[0-9]+$', description: 'Digits only: the chat response returns it as message_id' }),
    conversationId: Id(),
    role: MessageRoleSchema,
    content: Type.String(),
    createdAt: Type.String(),
  },
  { title: 'ServiceMessage' },
);
export type ServiceMessage = Static<typeof ServiceMessageSchema>;

export const ServiceConversationSchema = Type.Object(
  {
    id: Id(),
    contactName: Type.Union([Type.String(), Type.Null()]),
    contactPhone: Type.Union([Type.String(), Type.Null()]),
    contactEmail: Type.Union([Type.String(), Type.Null()]),
    lastIntent: Type.Union([Type.String(), Type.Null()]),
    agentHandoff: Type.Union([Type.Boolean(), Type.Null()]),
    updatedAt: Type.String(),
  },
  { title: 'ServiceConversation' },
);
export type ServiceConversation = Static<typeof ServiceConversationSchema>;

/** The two mutations the service calls, each with its input sent as the variable `$input`. */
export const GRAPHQL_MUTATIONS = [
  {
    name: 'createServiceMessage',
    description: 'Called twice per chat: the question, then the answer',
    input: CreateServiceMessageInputSchema,
    returns: ServiceMessageSchema,
  },
  {
    name: 'updateServiceConversation',
    description: 'Called when contact details were found or a handoff was requested; an absent member keeps its stored value',
    input: UpdateServiceConversationInputSchema,
    returns: ServiceConversationSchema,
  },
] as const;
