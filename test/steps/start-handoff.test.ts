import { describe, expect, it } from 'vitest';
import type { Contact } from '../../schemas/handoff.schema.ts';
import { startHandoff } from '../../steps/start-handoff.ts';
import { engineReply } from '../helpers/fixtures.ts';
import { fakeDeps } from './fake-deps.ts';
import { TRACE_ID, answeredContext, validRequest } from './step-context.ts';

function start(contact: Contact | null, requested: boolean) {
  const { deps, calls } = fakeDeps();
  const ctx = answeredContext(validRequest({ message: '  The kitchen is flooding!  ' }), {
    engineReply: engineReply({ intent: 'maintenance', sub_intent: 'emergency_maintenance' }),
    contact,
    agentHandoff: requested ? { requested: true, reason: 'emergency_maintenance' } : null,
  });
  const result = startHandoff(ctx, deps);
  return { result, dispatched: calls.dispatch };
}

const IDS = {
  conversation_id: '1111111111111111111',
  propertyId: '1234567890123456789',
  orgId: '9876543210987654321',
  session_id: 'd41d8cd98f00b204e9800998ecf8427e',
};

describe('startHandoff (rule 8, CONTRACTS 3.3)', () => {
  it('dispatches the handoff payload with the contact found', () => {
    const contact = { name: 'Maria Lopez', phone: '+14155552671', email: null };
    const { dispatched } = start(contact, true);
    expect(dispatched).toEqual([
      {
        ...IDS,
        intent: 'maintenance',
        sub_intent: 'emergency_maintenance',
        message: 'The kitchen is flooding!',
        contact,
        trace_id: TRACE_ID,
      },
    ]);
  });

  it('sends a contact of nulls when none was found', () => {
    const { dispatched } = start(null, true);
    expect(dispatched[0]?.contact).toEqual({ name: null, phone: null, email: null });
  });

  it('does not wait: nothing is returned for the pipeline to await', () => {
    expect(start(null, true).result).toBeUndefined();
  });

  it('dispatches nothing when no handoff was decided', () => {
    expect(start({ name: 'Maria Lopez', phone: null, email: null }, false).dispatched).toHaveLength(0);
  });
});
