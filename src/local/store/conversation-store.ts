import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { CreateServiceMessageInput, MessageRole, UpdateServiceConversationInput } from '../../../schemas/graphql.schema.ts';
import type { HandoffReceived } from '../../../schemas/handoff.schema.ts';
import { toConversation, toHandoff, toMessage, type Row, type StoredConversation, type StoredHandoff, type StoredMessage } from './rows.ts';

export type { StoredConversation, StoredHandoff, StoredMessage };

export interface ConversationStore {
  /** Idempotent on (conversationId, clientMessageKey): a repeated key returns the stored message. */
  createMessage(input: CreateServiceMessageInput): StoredMessage;
  /** Creates the conversation when missing; members absent or null keep their stored value. */
  updateConversation(input: UpdateServiceConversationInput): StoredConversation;
  /** Records a handoff; the same delivery repeated (a retry) is stored once. */
  recordHandoff(handoff: HandoffReceived): { readonly id: string; readonly duplicate: boolean };
  conversation(id: string): StoredConversation | undefined;
  messages(conversationId: string): StoredMessage[];
  handoffs(conversationId: string): StoredHandoff[];
}

const nul = (v: string | boolean | null | undefined): SQLInputValue =>
  v === undefined || v === null ? null : typeof v === 'boolean' ? Number(v) : v;

/** Every statement, prepared once. */
function prepareStatements(db: DatabaseSync) {
  return {
    touchConversation: db.prepare(`
      INSERT INTO conversations (id, property_id, org_id, session_id, created_at, updated_at)
      VALUES (:id, :property_id, :org_id, :session_id, :at, :at)
      ON CONFLICT (id) DO UPDATE SET
        property_id = COALESCE(conversations.property_id, excluded.property_id),
        org_id = COALESCE(conversations.org_id, excluded.org_id),
        session_id = COALESCE(conversations.session_id, excluded.session_id),
        updated_at = excluded.updated_at`),
    insertMessage: db.prepare(`
      INSERT INTO messages (conversation_id, property_id, org_id, session_id, role, content, trace_id,
        client_message_key, intent, sub_intent, retrieval_type, language, entry_id, created_at)
      VALUES (:conversation_id, :property_id, :org_id, :session_id, :role, :content, :trace_id,
        :client_message_key, :intent, :sub_intent, :retrieval_type, :language, :entry_id, :created_at)
      ON CONFLICT (conversation_id, client_message_key) DO NOTHING
      RETURNING *`),
    messageByKey: db.prepare('SELECT * FROM messages WHERE conversation_id = ? AND client_message_key = ?'),
    upsertConversation: db.prepare(`
      INSERT INTO conversations (id, contact_name, contact_phone, contact_email, last_intent, agent_handoff, created_at, updated_at)
      VALUES (:id, :contact_name, :contact_phone, :contact_email, :last_intent, :agent_handoff, :at, :at)
      ON CONFLICT (id) DO UPDATE SET
        contact_name = COALESCE(excluded.contact_name, conversations.contact_name),
        contact_phone = COALESCE(excluded.contact_phone, conversations.contact_phone),
        contact_email = COALESCE(excluded.contact_email, conversations.contact_email),
        last_intent = COALESCE(excluded.last_intent, conversations.last_intent),
        agent_handoff = COALESCE(excluded.agent_handoff, conversations.agent_handoff),
        updated_at = excluded.updated_at
      RETURNING *`),
    insertHandoff: db.prepare(`
      INSERT INTO handoffs (conversation_id, property_id, org_id, session_id, intent, sub_intent, message,
        contact_name, contact_phone, contact_email, trace_id, received_at)
      VALUES (:conversation_id, :property_id, :org_id, :session_id, :intent, :sub_intent, :message,
        :contact_name, :contact_phone, :contact_email, :trace_id, :received_at)
      ON CONFLICT DO NOTHING
      RETURNING id`),
    handoffByDelivery: db.prepare(
      'SELECT id FROM handoffs WHERE conversation_id = ? AND trace_id = ? AND sub_intent = ? AND message = ?'),
    conversationById: db.prepare('SELECT * FROM conversations WHERE id = ?'),
    messagesOf: db.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY id'),
    handoffsOf: db.prepare('SELECT * FROM handoffs WHERE conversation_id = ? ORDER BY id'),
  };
}

/** Runs `work` as one write transaction: an idempotent insert and its conversation touch land together or not at all. */
function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

export function createConversationStore(db: DatabaseSync, now: () => Date = () => new Date()): ConversationStore {
  const sql = prepareStatements(db);
  return {
    createMessage: (input) => inTransaction(db, () => {
      const at = now().toISOString();
      const inserted = sql.insertMessage.get({
        conversation_id: input.conversationId, property_id: input.propertyId, org_id: input.orgId,
        session_id: input.sessionId, role: input.role satisfies MessageRole, content: input.content,
        trace_id: input.traceId, client_message_key: input.clientMessageKey, intent: nul(input.intent),
        sub_intent: nul(input.subIntent), retrieval_type: nul(input.retrievalType),
        language: nul(input.language), entry_id: nul(input.entryId), created_at: at,
      }) as Row | undefined;
      if (inserted === undefined) {
        return toMessage(sql.messageByKey.get(input.conversationId, input.clientMessageKey) as Row);
      }
      sql.touchConversation.run({ id: input.conversationId, property_id: input.propertyId, org_id: input.orgId, session_id: input.sessionId, at });
      return toMessage(inserted);
    }),

    updateConversation: (input) => toConversation(sql.upsertConversation.get({
      id: input.conversationId, contact_name: nul(input.contactName), contact_phone: nul(input.contactPhone),
      contact_email: nul(input.contactEmail), last_intent: nul(input.lastIntent),
      agent_handoff: nul(input.agentHandoff), at: now().toISOString(),
    }) as Row),

    recordHandoff: (h) => inTransaction(db, () => {
      const at = now().toISOString();
      const inserted = sql.insertHandoff.get({
        conversation_id: h.conversation_id, property_id: h.propertyId, org_id: h.orgId, session_id: h.session_id,
        intent: h.intent, sub_intent: h.sub_intent, message: h.message, contact_name: h.contact.name,
        contact_phone: h.contact.phone, contact_email: h.contact.email, trace_id: h.trace_id, received_at: at,
      }) as Row | undefined;
      if (inserted === undefined) {
        const existing = sql.handoffByDelivery.get(h.conversation_id, h.trace_id, h.sub_intent, h.message) as Row;
        return { id: String(existing.id), duplicate: true };
      }
      sql.touchConversation.run({ id: h.conversation_id, property_id: h.propertyId, org_id: h.orgId, session_id: h.session_id, at });
      return { id: String(inserted.id), duplicate: false };
    }),

    conversation: (id) => {
      const row = sql.conversationById.get(id) as Row | undefined;
      return row === undefined ? undefined : toConversation(row);
    },
    messages: (conversationId) => (sql.messagesOf.all(conversationId) as Row[]).map(toMessage),
    handoffs: (conversationId) => (sql.handoffsOf.all(conversationId) as Row[]).map(toHandoff),
  };
}
