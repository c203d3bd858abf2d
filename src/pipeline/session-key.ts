import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import { sessionNameOfKey, type SessionKey } from './session-cache-port.ts';

/** The literal session id callers send when they have none; it names no real session. */
export const PLACEHOLDER_SESSION_ID = 'fake_service_session_id';

/** The request members that say which session a message belongs to. */
export type SessionOf = Pick<ChatRequest, 'orgId' | 'propertyId' | 'session_id' | 'conversation_id'>;

/**
 * docs/api.md#session-cache: a session is keyed by tenant and property too, so two tenants never share an entry.
 * The placeholder id is scoped by `conversation_id`, so two visitors sent with it never share
 * history, replies, contact details, a turn queue or a rate limit. ':' never occurs in a real
 * session id (hex or UUID) nor in a conversation id (digits or Base64), so the scoped id cannot
 * equal any other session's.
 */
export function sessionKeyOf(request: SessionOf): SessionKey {
  const sessionId = request.session_id === PLACEHOLDER_SESSION_ID ? `${PLACEHOLDER_SESSION_ID}:${request.conversation_id}` : request.session_id;
  return { orgId: request.orgId, propertyId: request.propertyId, sessionId };
}

/** The session as one string (turn queue, rate limits, the hash tag of its Redis keys): session-cache-port.ts `sessionNameOfKey`. */
export function sessionNameOf(request: SessionOf): string {
  return sessionNameOfKey(sessionKeyOf(request));
}
