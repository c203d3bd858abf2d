import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineReplySchema } from '../../schemas/engine.schema.ts';
import { HARBOR_VIEW, MAPLE_COURT, engineRequest, postJson, startTestStack, url, type TestStack } from './helpers.ts';

const CONTRACT_MEMBERS = [
  'response', 'intent', 'sub_intent', 'retrieval_type', 'orchestrator_level1_details', 'orchestrator_level2_details',
  'keyword_cache', 'not_available', 'context', 'follow_up', 'memory', 'agent_handoff',
];

describe('reference engine: replies', () => {
  let stack: TestStack;
  let ask: (message: string, overrides?: Record<string, unknown>) => Promise<any>;
  beforeAll(async () => {
    stack = await startTestStack(new Set(['engine']));
    ask = async (message, overrides = {}) => {
      const res = await postJson(`${url(stack, 'engine')}/query`, engineRequest(message, overrides));
      expect(res.status).toBe(200);
      expect(Value.Check(EngineReplySchema, res.body)).toBe(true);
      return res.body;
    };
  });
  afterAll(async () => { await stack.dispose(); });

  it('fills every member of docs/contracts.md#engine, follow_up as a string, always in English', async () => {
    const reply = await ask('Do you allow cats?');
    for (const member of CONTRACT_MEMBERS) expect(reply).toHaveProperty(member);
    expect(typeof reply.follow_up).toBe('string');
    expect(reply).toMatchObject({ context: null, memory: null, agent_handoff: null, language: 'en', not_available: [] });
    expect(reply.adapter_action).toBeUndefined();
  });

  it('answers from the requested property and falls back to the first one for an unknown id', async () => {
    expect((await ask('What are your office hours?', { propertyId: HARBOR_VIEW })).response).toContain('Sunday from 11 AM');
    expect((await ask('What are your office hours?', { propertyId: MAPLE_COURT })).response).toContain('closed on Sundays');
    expect((await ask('What are your office hours?', { propertyId: '1111111111111111111' })).response).toContain('closed on Sundays');
  });

  it('requests an agent handoff when the visitor asks for a person', async () => {
    const reply = await ask('Can I talk to a real person please?');
    expect(reply.sub_intent).toBe('agent_hand_off');
    expect(reply.agent_handoff).toEqual({ reason: expect.any(String) });
  });

  it('a request for a person wins over the contact details given with it', async () => {
    const en = await ask('Please connect me with a human agent. My name is Juan Pérez, call me at (415) 555-2671 or email juan.perez@example.com');
    expect(en.sub_intent).toBe('agent_hand_off');
    const es = await ask('Quiero hablar con un agente. Me llamo Juan Pérez, mi teléfono es (415) 555-2671');
    expect(es.sub_intent).toBe('agent_hand_off');
    // contact details alone are still taken as contact information
    expect((await ask('My phone is (415) 555-2671 and my email is juan.perez@example.com')).sub_intent).toBe('customer_info');
  });

  it('does not ask for contact details the message has just given', async () => {
    const asking = 'To help them reach you, could you share your name and a phone number or email?';
    expect((await ask('Can I talk to a real person please?')).follow_up).toBe(asking);
    const withPhone = await ask('Please connect me with a human agent. My name is Juan Pérez, call me at (415) 555-2671');
    expect(withPhone.sub_intent).toBe('agent_hand_off');
    expect(withPhone.follow_up).toBe('They will reach you with the contact details you just gave.');
    const es = await ask('Quiero hablar con un agente, mi correo es juan.perez@example.com');
    expect(es.follow_up).not.toBe(asking);

    const complaint = 'I need to file a complaint about my noisy neighbor upstairs';
    expect((await ask(complaint)).response).toContain('If you share your name and a phone number or email');
    const withEmail = await ask(`${complaint}, write to me at ana.ruiz@example.com`);
    expect(withEmail.sub_intent).toBe('complaint_filing');
    expect(withEmail.response).not.toContain('If you share your name');
    expect(withEmail.response).toContain('We will use the contact details you gave to reach you.');
  });

  it('tells the visitor to call the emergency line in an emergency', async () => {
    const reply = await ask('Water is pouring through my ceiling!', { propertyId: HARBOR_VIEW });
    expect(reply).toMatchObject({ sub_intent: 'emergency_maintenance', retrieval_type: 'fixed' });
    expect(reply.response).toContain('(619) 555-0188');
  });

  it('lists amenities as node data items', async () => {
    const reply = await ask('What amenities does the community have?');
    expect(reply).toMatchObject({ retrieval_type: 'node', sub_intent: 'amenities' });
    expect(reply.data).toContainEqual({ name: 'Swimming pool', hours: '8 AM to 10 PM', fee: 'Included in rent' });
  });

  it('gives the neighborhood summary as a node reply of several paragraphs', async () => {
    const reply = await ask('Tell me about the neighborhood');
    expect(reply).toMatchObject({ retrieval_type: 'node', sub_intent: 'neighborhood_summary' });
    expect(reply.response.split('\n\n').length).toBeGreaterThanOrEqual(3);
  });

  it('hands live-data questions to the service with an adapter action', async () => {
    expect(await ask('Do you have any 2 bedroom apartments available?')).toMatchObject({ retrieval_type: 'adapter', adapter_action: 'units', keyword_cache: { bedrooms: 2 } });
    expect(await ask('Can I see your floor plans?')).toMatchObject({ retrieval_type: 'adapter', adapter_action: 'floor_plans' });
    expect(await ask('I would like to schedule a tour')).toMatchObject({ retrieval_type: 'adapter', adapter_action: 'tour_slots' });
    const nearby = await ask('Are there restaurants and a pharmacy nearby?');
    expect(nearby).toMatchObject({ retrieval_type: 'adapter', adapter_action: 'neighborhood', sub_intent: 'nearby_places' });
    expect(nearby.keyword_cache.places).toEqual(['restaurant', 'pharmacy']);
  });

  it('offers a phone call instead of tour slots when online tour booking is off', async () => {
    const reply = await ask('I would like to schedule a tour', { tourScheduleEnabled: false });
    expect(reply).toMatchObject({ retrieval_type: 'fixed', sub_intent: 'tour_scheduling' });
    expect(reply.adapter_action).toBeUndefined();
    expect(reply.response).toContain('(512) 555-0142');
  });

  it('retrieves the FAQ document that answers the question (rag)', async () => {
    const deposit = await ask('How much is the security deposit and the application fee?');
    expect(deposit).toMatchObject({ retrieval_type: 'rag', sub_intent: 'pricing' });
    expect(deposit.response).toContain('security deposit starts at $300');
    const pests = await ask('I saw cockroaches in my kitchen, can you send pest control?');
    expect(pests).toMatchObject({ retrieval_type: 'rag', sub_intent: 'maintenance_request' });
    expect(pests.response).toContain('Pest control is included');
    const spanish = await ask('¿El agua y la basura están incluidas en la renta?');
    expect(spanish.response).toContain('Water, sewer and trash');
  });

  it('reports a bedroom count the property does not offer as not available', async () => {
    const reply = await ask('Do you have a studio available?', { propertyId: HARBOR_VIEW });
    expect(reply).toMatchObject({ keyword_cache: { bedrooms: 0 }, not_available: ['studio'] });
  });

  it('refuses a body that does not match the engine request (400)', async () => {
    const target = `${url(stack, 'engine')}/query`;
    const { message: _omitted, ...withoutMessage } = engineRequest('x');
    expect((await postJson(target, withoutMessage)).status).toBe(400);
    expect((await postJson(target, engineRequest('Hi', { tourScheduleEnabled: 'true' }))).status).toBe(400);
    expect((await postJson(target, engineRequest('Hi', { language: 'fr' }))).status).toBe(400);
    expect((await postJson(target, engineRequest('   '))).status).toBe(400);
    const notJson = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"message":' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ detail: expect.any(String) });
  });

  it('refuses a request that still carries graphql_api_key (the service must strip it)', async () => {
    const res = await postJson(`${url(stack, 'engine')}/query`, engineRequest('Hi', { graphql_api_key: 'abc_DEF-123' }));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('graphql_api_key');
  });
});
