import type { IResolvers } from 'mercurius';
import type { CreateServiceMessageInput, UpdateServiceConversationInput } from '../../../schemas/graphql.schema.ts';
import type { ConversationStore, StoredConversation } from '../store/conversation-store.ts';

/** GraphQL leaves absent optional input members out, or sends them as null: both mean "not given". */
function withoutNulls<T extends object>(input: T): T {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined)) as T;
}

export function buildResolvers(store: ConversationStore): IResolvers {
  return {
    Mutation: {
      createServiceMessage: (_root: unknown, args: { input: CreateServiceMessageInput }) =>
        store.createMessage(withoutNulls(args.input)),
      updateServiceConversation: (_root: unknown, args: { input: UpdateServiceConversationInput }) =>
        store.updateConversation(withoutNulls(args.input)),
    },
    Query: {
      conversation: (_root: unknown, args: { id: string }) => store.conversation(args.id) ?? null,
    },
    Conversation: {
      messages: (conversation: StoredConversation) => store.messages(conversation.id),
      handoffs: (conversation: StoredConversation) => store.handoffs(conversation.id),
    },
  };
}
