import { describe, expect, it } from 'vitest';
import { extractContact } from '../../steps/extract-contact.ts';
import { engineReply } from '../helpers/fixtures.ts';
import { fakeDeps } from './fake-deps.ts';
import { answeredContext, validRequest } from './step-context.ts';

const CONTACT_SUB_INTENTS = ['customer_info', 'contact', 'complaint_filing', 'agent_hand_off', 'emergency_maintenance'];
const MESSAGE = 'Hi, my name is Maria Lopez, call me at (415) 555-2671 or write to maria.lopez@Example.COM';

async function contactFor(subIntent: string, message: string, defaultPhoneRegion = 'US') {
  const { deps } = fakeDeps({ defaultPhoneRegion });
  const ctx = answeredContext(validRequest({ message }), { engineReply: engineReply({ sub_intent: subIntent }) });
  return (await extractContact(ctx, deps)).contact;
}

describe('extractContact (processing rule 6)', () => {
  it.each(CONTACT_SUB_INTENTS)('finds name, phone (E.164) and email for %s', async (subIntent) => {
    const contact = await contactFor(subIntent, MESSAGE);
    expect(contact).toEqual({ name: 'Maria Lopez', phone: '+14155552671', email: 'maria.lopez@example.com' });
  });

  it.each(['office_hours', 'units', 'neighborhood_summary', 'pet_policy'])('does not look for contact details for %s', async (subIntent) => {
    expect(await contactFor(subIntent, MESSAGE)).toBeNull();
  });

  it('is null when the message holds no contact details', async () => {
    expect(await contactFor('contact', 'Please have someone get back to me about the lease.')).toBeNull();
  });

  it('keeps what was found and nulls the rest', async () => {
    expect(await contactFor('customer_info', 'You can text 415-555-2671 anytime')).toEqual({ name: null, phone: '+14155552671', email: null });
  });

  it('reads a national number in the configured default region', async () => {
    expect(await contactFor('contact', 'Ring me on 020 7946 0018 please', 'GB')).toMatchObject({ phone: '+442079460018' });
    expect(await contactFor('contact', 'Ring me on 030 901820 please', 'DE')).toMatchObject({ phone: '+4930901820' });
  });

  it('keeps an explicit country code whatever the default region', async () => {
    expect(await contactFor('contact', 'My mobile is +44 20 7946 0018', 'US')).toMatchObject({ phone: '+442079460018' });
  });
});
