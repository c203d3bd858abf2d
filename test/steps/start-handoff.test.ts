import { describe, expect, it } from 'vitest';
import type { Contact } from '../../schemas/handoff.schema.ts';
import { OutboxUnavailableError } from '../../src/errors.ts';
import { startHandoff } from '../../steps/start-handoff.ts';
import { engineReply } from '../helpers/fixtures.ts';
import { FIXED_ID, fakeDeps } from './fake-deps.ts';
import { TRACE_ID, answeredContext, validRequest } from './step-context.ts';

type History = ReturnType<typeof validRequest>['history'];

function context(contact: Contact | null, requested: boolean, history: History = []) {
  return answeredContext(validRequest({ message: '  The kitchen is flooding!  ', history }), {
    engineReply: engineReply({ intent: 'maintenance', sub_intent: 'emergency_maintenance' }),
    contact,
    agentHandoff: requested ? { requested: true, reason: 'emergency_maintenance' } : null,
  });
}

async function start(contact: Contact | null, requested: boolean) {
  const { deps, calls } = fakeDeps();
  const result = await startHandoff(context(contact, requested), deps);
  return { result, enqueued: calls.enqueued };
}

const IDS = {
  conversation_id: '1111111111111111111',
  propertyId: '1234567890123456789',
  orgId: '9876543210987654321',
  session_id: 'd41d8cd98f00b204e9800998ecf8427e',
};

describe('startHandoff (processing rule 8, docs/contracts.md#handoff-receiver, docs/operations.md#handoffs-and-dead-letters)', () => {
  it('writes the handoff, with a fresh handoff_id and the contact found, to the outbox', async () => {
    const contact = { name: 'Maria Lopez', phone: '+14155552671', email: null };
    const { enqueued, result } = await start(contact, true);
    expect(result).toBeUndefined();
    expect(enqueued).toEqual([
      {
        handoff_id: FIXED_ID,
        ...IDS,
        intent: 'maintenance',
        sub_intent: 'emergency_maintenance',
        message: 'The kitchen is flooding!',
        contact,
        trace_id: TRACE_ID,
        language: 'en',
        reply: 'Our office is open Monday to Friday, 9am to 6pm.',
        transcript: [
          { role: 'user', content: 'The kitchen is flooding!' },
          { role: 'assistant', content: 'Our office is open Monday to Friday, 9am to 6pm.' },
        ],
        requested_at: '2026-01-01T00:00:00.000Z',
      },
    ]);
  });

  it('sends the last 8 messages of the conversation, oldest first, this turn included (docs/contracts.md#handoff-receiver)', async () => {
    const history: History = Array.from({ length: 11 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `message ${i}` }));
    const { deps, calls } = fakeDeps();
    await startHandoff(context(null, true, history), deps);
    const transcript = calls.enqueued[0]?.transcript ?? [];
    expect(transcript).toHaveLength(8);
    expect(transcript.slice(0, 6).map((m) => m.content)).toEqual(['message 5', 'message 6', 'message 7', 'message 8', 'message 9', 'message 10']);
    expect(transcript.slice(6)).toEqual([
      { role: 'user', content: 'The kitchen is flooding!' },
      { role: 'assistant', content: 'Our office is open Monday to Friday, 9am to 6pm.' },
    ]);
  });

  it('uses the session cache\'s messages when the request sends no history', async () => {
    const { deps, calls } = fakeDeps();
    const session = { messages: [{ role: 'user' as const, content: 'is there parking?' }, { role: 'assistant' as const, content: 'Yes, two spots.' }] };
    const ctx = { ...context(null, true), session: session as unknown as NonNullable<ReturnType<typeof context>['session']> };
    await startHandoff(ctx, deps);
    expect(calls.enqueued[0]?.transcript.map((m) => m.content)).toEqual([
      'is there parking?', 'Yes, two spots.', 'The kitchen is flooding!', 'Our office is open Monday to Friday, 9am to 6pm.',
    ]);
  });

  it('sends a contact of nulls when none was found', async () => {
    const { enqueued } = await start(null, true);
    expect(enqueued[0]?.contact).toEqual({ name: null, phone: null, email: null });
  });

  it('fails the chat when no outbox can take the handoff: an escalation is never dropped silently', async () => {
    const { deps, calls } = fakeDeps({ outbox: new OutboxUnavailableError('disk full') });
    await expect(startHandoff(context(null, true), deps)).rejects.toBeInstanceOf(OutboxUnavailableError);
    expect(calls.enqueued).toEqual([]);
  });

  it('touches no outbox when no handoff was decided, even one that is down', async () => {
    const { deps, calls } = fakeDeps({ outbox: new OutboxUnavailableError('down') });
    // Nothing to wait for: the step answers at once, without a promise.
    expect(startHandoff(context({ name: 'Maria Lopez', phone: null, email: null }, false), deps)).toBeUndefined();
    expect(calls.enqueued).toHaveLength(0);
  });
});
