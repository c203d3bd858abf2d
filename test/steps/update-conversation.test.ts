import { describe, expect, it } from 'vitest';
import type { Contact } from '../../schemas/handoff.schema.ts';
import type { AgentHandoff } from '../../schemas/chat-response.schema.ts';
import { updateConversation } from '../../steps/update-conversation.ts';
import { CALLER_API_KEY, engineReply } from '../helpers/fixtures.ts';
import { fakeDeps } from './fake-deps.ts';
import { answeredContext, validRequest } from './step-context.ts';

async function update(contact: Contact | null | undefined, agentHandoff: AgentHandoff | null | undefined) {
  const { deps, calls } = fakeDeps();
  const ctx = answeredContext(validRequest(), { engineReply: engineReply({ intent: 'maintenance', sub_intent: 'contact' }) });
  if (contact !== undefined) ctx.contact = contact;
  if (agentHandoff !== undefined) ctx.agentHandoff = agentHandoff;
  await updateConversation(ctx, deps);
  return calls.updateConversation;
}

const FULL: Contact = { name: 'Maria Lopez', phone: '+14155552671', email: 'maria@example.com' };
const HANDOFF: AgentHandoff = { requested: true, reason: 'agent_hand_off' };

describe('updateConversation (docs/contracts.md#graphql-store)', () => {
  it.each<[string, Contact | null | undefined, AgentHandoff | null | undefined]>([
    ['null contact and handoff', null, null],
    ['neither decided', undefined, undefined],
  ])('makes no call with %s', async (_label, contact, handoff) => {
    expect(await update(contact, handoff)).toHaveLength(0);
  });

  it('records a found contact with the caller key, and no agentHandoff member', async () => {
    const [call, ...more] = await update(FULL, null);
    expect(more).toHaveLength(0);
    expect(call?.callerApiKey).toBe(CALLER_API_KEY);
    expect(call?.input).toEqual({
      conversationId: '1111111111111111111',
      lastIntent: 'maintenance',
      contactName: 'Maria Lopez',
      contactPhone: '+14155552671',
      contactEmail: 'maria@example.com',
    });
  });

  it('sends only the contact fields that were found', async () => {
    const [call] = await update({ name: null, phone: '+14155552671', email: null }, null);
    expect(call?.input).toEqual({ conversationId: '1111111111111111111', lastIntent: 'maintenance', contactPhone: '+14155552671' });
  });

  it('records a handoff request as agentHandoff: true, even without a contact', async () => {
    const [call] = await update(null, HANDOFF);
    expect(call?.input).toEqual({ conversationId: '1111111111111111111', lastIntent: 'maintenance', agentHandoff: true });
    expect(call?.callerApiKey).toBe(CALLER_API_KEY);
  });

  it('records both in one call', async () => {
    const calls = await update({ name: null, phone: null, email: 'maria@example.com' }, HANDOFF);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.input).toMatchObject({ contactEmail: 'maria@example.com', agentHandoff: true });
    expect(calls[0]?.input).not.toHaveProperty('contactName');
  });
});
