import type { AgentHandoff } from '../../schemas/chat-response.schema.ts';
import type { EngineReply } from '../../schemas/engine.schema.ts';

/** Processing rule 6 (docs/api.md#what-a-chat-does-in-order): sub-intents whose message is searched for contact details. */
export const CONTACT_SUB_INTENTS: ReadonlySet<string> = new Set([
  'customer_info',
  'contact',
  'complaint_filing',
  'agent_hand_off',
  'emergency_maintenance',
]);

/** docs/contracts.md#handoff-receiver: sub-intents that always start a handoff. */
export const HANDOFF_SUB_INTENTS: ReadonlySet<string> = new Set(['agent_hand_off', 'emergency_maintenance']);

/** A handoff is started when the engine asks for one or the sub-intent always needs a person. */
export function handoffFor(reply: EngineReply): AgentHandoff | null {
  // null, absent or an explicit `false` is no request; anything else (e.g. {"reason": ...}) is one.
  const asked = reply.agent_handoff !== undefined && reply.agent_handoff !== null && reply.agent_handoff !== false;
  return asked || HANDOFF_SUB_INTENTS.has(reply.sub_intent) ? { requested: true, reason: reply.sub_intent } : null;
}
