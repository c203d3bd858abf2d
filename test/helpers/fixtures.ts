import { randomBytes } from 'node:crypto';
import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import type { EngineReply } from '../../schemas/engine.schema.ts';

/** The caller secret used across tests; the log-leak test searches for it. */
export const CALLER_API_KEY = 'caller-SECRET_key-9f8e7d6c5b4a';

/** A fresh MD5-shaped session id, so that tests do not share session-cache entries by accident. */
export const newSessionId = (): string => randomBytes(16).toString('hex');

/** A valid chat request in a new session; override any member. */
export function chatRequest(overrides: Partial<Record<keyof ChatRequest, unknown>> & Record<string, unknown> = {}): Record<string, unknown> {
  return {
    propertyId: '1234567890123456789',
    message: '  What are your office hours?  ',
    orgId: '9876543210987654321',
    session_id: newSessionId(),
    conversation_id: '1111111111111111111',
    graphql_api_key: CALLER_API_KEY,
    tourScheduleEnabled: true,
    history: [],
    ...overrides,
  };
}

export function engineReply(overrides: Partial<EngineReply> = {}): EngineReply {
  return {
    response: 'Our office is open Monday to Friday, 9am to 6pm.',
    intent: 'office_hours',
    sub_intent: 'office_hours',
    retrieval_type: 'fixed',
    orchestrator_level1_details: {},
    orchestrator_level2_details: {},
    keyword_cache: {},
    not_available: [],
    context: null,
    follow_up: 'Anything else I can help with?',
    memory: null,
    agent_handoff: null,
    ...overrides,
  };
}
