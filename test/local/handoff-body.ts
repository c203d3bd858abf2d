import { MAPLE_COURT } from './helpers.ts';

/** A handoff body (docs/contracts.md#handoff-receiver). */
export function handoffBody(conversationId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    conversation_id: conversationId,
    propertyId: MAPLE_COURT,
    orgId: '5550001112223334445',
    session_id: 'fake_service_session_id',
    intent: 'agent_handoff',
    sub_intent: 'agent_hand_off',
    message: 'I want to talk to a person, I am Lee, 512-555-0190',
    contact: { name: 'Lee', phone: '+15125550190', email: null },
    trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
    ...overrides,
  };
}
