import type { MessageRole } from '../../../schemas/graphql.schema.ts';

/** A row as node:sqlite returns it. */
export type Row = Record<string, string | number | bigint | null | Uint8Array>;

export interface StoredMessage {
  readonly id: string;
  readonly conversationId: string;
  readonly propertyId: string;
  readonly orgId: string;
  readonly sessionId: string;
  readonly role: MessageRole;
  readonly content: string;
  readonly traceId: string;
  readonly clientMessageKey: string;
  readonly intent: string | null;
  readonly subIntent: string | null;
  readonly retrievalType: string | null;
  readonly language: string | null;
  readonly entryId: string | null;
  readonly createdAt: string;
}

export interface StoredConversation {
  readonly id: string;
  readonly propertyId: string | null;
  readonly orgId: string | null;
  readonly sessionId: string | null;
  readonly contactName: string | null;
  readonly contactPhone: string | null;
  readonly contactEmail: string | null;
  readonly lastIntent: string | null;
  readonly agentHandoff: boolean | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface StoredHandoff {
  readonly id: string;
  readonly conversationId: string;
  readonly propertyId: string;
  readonly orgId: string;
  readonly sessionId: string;
  readonly intent: string;
  readonly subIntent: string;
  readonly message: string;
  readonly contactName: string | null;
  readonly contactPhone: string | null;
  readonly contactEmail: string | null;
  readonly traceId: string;
  readonly receivedAt: string;
}

const text = (v: Row[string] | undefined): string => (v === null || v === undefined ? '' : String(v));
const maybe = (v: Row[string] | undefined): string | null => (v === null || v === undefined ? null : String(v));

export function toMessage(r: Row): StoredMessage {
  return {
    id: text(r.id), conversationId: text(r.conversation_id), propertyId: text(r.property_id),
    orgId: text(r.org_id), sessionId: text(r.session_id), role: text(r.role) as MessageRole,
    content: text(r.content), traceId: text(r.trace_id), clientMessageKey: text(r.client_message_key),
    intent: maybe(r.intent), subIntent: maybe(r.sub_intent), retrievalType: maybe(r.retrieval_type),
    language: maybe(r.language), entryId: maybe(r.entry_id), createdAt: text(r.created_at),
  };
}

export function toConversation(r: Row): StoredConversation {
  return {
    id: text(r.id), propertyId: maybe(r.property_id), orgId: maybe(r.org_id), sessionId: maybe(r.session_id),
    contactName: maybe(r.contact_name), contactPhone: maybe(r.contact_phone), contactEmail: maybe(r.contact_email),
    lastIntent: maybe(r.last_intent), agentHandoff: r.agent_handoff === null || r.agent_handoff === undefined ? null : Number(r.agent_handoff) === 1,
    createdAt: text(r.created_at), updatedAt: text(r.updated_at),
  };
}

export function toHandoff(r: Row): StoredHandoff {
  return {
    id: text(r.id), conversationId: text(r.conversation_id), propertyId: text(r.property_id),
    orgId: text(r.org_id), sessionId: text(r.session_id), intent: text(r.intent), subIntent: text(r.sub_intent),
    message: text(r.message), contactName: maybe(r.contact_name), contactPhone: maybe(r.contact_phone),
    contactEmail: maybe(r.contact_email), traceId: text(r.trace_id), receivedAt: text(r.received_at),
  };
}
