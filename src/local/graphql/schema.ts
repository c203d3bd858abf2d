/**
 * The contract of docs/contracts.md#graphql-store exactly (enum, inputs, ServiceMessage, ServiceConversation, Mutation), plus a
 * read side for people and tests: `conversation(id)` with its messages, contact and handoffs.
 */
export const SCHEMA = /* GraphQL */ `
  enum MessageRole { USER ASSISTANT }

  input CreateServiceMessageInput {
    conversationId: ID!  propertyId: ID!  orgId: ID!  sessionId: String!
    role: MessageRole!   content: String!  traceId: String!
    clientMessageKey: String!
    intent: String  subIntent: String  retrievalType: String  language: String  entryId: String
    stopped: Boolean
  }

  input UpdateServiceConversationInput {
    conversationId: ID!  contactName: String  contactPhone: String  contactEmail: String
    lastIntent: String  agentHandoff: Boolean
  }

  type ServiceMessage { id: ID! conversationId: ID! role: MessageRole! content: String! createdAt: String! }

  type ServiceConversation { id: ID! contactName: String contactPhone: String contactEmail: String
    lastIntent: String agentHandoff: Boolean updatedAt: String! }

  type Mutation {
    createServiceMessage(input: CreateServiceMessageInput!): ServiceMessage!
    updateServiceConversation(input: UpdateServiceConversationInput!): ServiceConversation!
  }

  "A stored message with everything the service sent for it."
  type ConversationMessage {
    id: ID! conversationId: ID! role: MessageRole! content: String! createdAt: String!
    propertyId: ID! orgId: ID! sessionId: String! traceId: String! clientMessageKey: String!
    intent: String subIntent: String retrievalType: String language: String entryId: String
  }

  "A handoff received by the local handoff receiver (POST /handoff)."
  type Handoff {
    id: ID! conversationId: ID! propertyId: ID! orgId: ID! sessionId: String!
    intent: String! subIntent: String! message: String!
    contactName: String contactPhone: String contactEmail: String
    traceId: String! receivedAt: String!
  }

  type Conversation {
    id: ID! propertyId: ID orgId: ID sessionId: String
    contactName: String contactPhone: String contactEmail: String
    lastIntent: String agentHandoff: Boolean createdAt: String! updatedAt: String!
    "Oldest first."
    messages: [ConversationMessage!]!
    "Oldest first."
    handoffs: [Handoff!]!
  }

  type Query {
    "null when nothing was ever stored for this conversation id."
    conversation(id: ID!): Conversation
  }
`;
