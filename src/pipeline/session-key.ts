import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import type { SessionKey } from '../cache/session-cache.ts';

/** docs/api.md#session-cache: a session is keyed by tenant and property too, so two tenants never share an entry. */
export function sessionKeyOf(request: ChatRequest): SessionKey {
  return { orgId: request.orgId, propertyId: request.propertyId, sessionId: request.session_id };
}
