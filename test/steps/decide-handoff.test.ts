import { describe, expect, it } from 'vitest';
import type { EngineReply } from '../../schemas/engine.schema.ts';
import { decideHandoff } from '../../steps/decide-handoff.ts';
import { engineReply } from '../helpers/fixtures.ts';
import { answeredContext, validRequest } from './step-context.ts';

function decide(reply: Partial<EngineReply>) {
  return decideHandoff(answeredContext(validRequest(), { engineReply: engineReply(reply) })).agentHandoff;
}

describe('decideHandoff (docs/contracts.md#handoff-receiver)', () => {
  it('requests a handoff when the engine asks for one, with the sub-intent as reason', () => {
    expect(decide({ sub_intent: 'lease_question', agent_handoff: { reason: 'visitor asked for a person' } })).toEqual({
      requested: true,
      reason: 'lease_question',
    });
  });

  it.each(['agent_hand_off', 'emergency_maintenance'])('always requests one for %s', (subIntent) => {
    expect(decide({ sub_intent: subIntent, agent_handoff: null })).toEqual({ requested: true, reason: subIntent });
  });

  it.each(['office_hours', 'contact', 'complaint_filing', 'customer_info'])('requests none for %s without an engine request', (subIntent) => {
    expect(decide({ sub_intent: subIntent, agent_handoff: null })).toBeNull();
  });

  it('requests none when the engine leaves agent_handoff out', () => {
    const { agent_handoff: _a, ...reply } = engineReply({ sub_intent: 'office_hours' });
    expect(decideHandoff(answeredContext(validRequest(), { engineReply: reply })).agentHandoff).toBeNull();
  });
});

describe('decideHandoff: an explicit false', () => {
  it('agent_handoff false from the engine is not a request', () => {
    const ctx = answeredContext(validRequest(), { engineReply: engineReply({ agent_handoff: false, sub_intent: 'pets' }) });
    expect(decideHandoff(ctx).agentHandoff).toBeNull();
  });
});
