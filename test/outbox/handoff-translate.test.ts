import { beforeAll, describe, expect, it } from 'vitest';
import { warmUpContacts } from '../../src/contacts/find-contact.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { startStubbedService, useStubbedService } from '../helpers/stubbed-service.ts';
import { sendJson } from '../helpers/stub-server.ts';

const harness = useStubbedService();
// The contact finders load on the first contact chat (seconds on a loaded machine): these tests time
// the handoff, not that load (test/contacts/contact-loading.test.ts covers it).
beforeAll(async () => {
  await warmUpContacts();
}, 30_000);

const chat = (payload: Record<string, unknown>) => harness.chat(payload);
const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};
type GraphqlBody = { query: string; variables: { input: Record<string, unknown> } };
const updates = () =>
  harness.svc.stubs.graphql.requests.map((r) => r.body as GraphqlBody).filter((b) => b.query.includes('updateServiceConversation'));

describe('agent handoff', () => {
  it('does not delay the reply, and is delivered with the extracted contact', async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ intent: 'handoff', sub_intent: 'agent_hand_off', response: 'Connecting you with an agent.' })));
    harness.svc.stubs.handoff.handle(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 2500));
      sendJson(res, 202, {});
    });
    const before = harness.svc.stubs.handoff.requests.length;
    const started = Date.now();
    const res = await chat(chatRequest({ message: 'I want a person. My name is Ana Ruiz, call me at (415) 555-2671 or ana.ruiz@Example.COM' }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(res.statusCode).toBe(200);
    expect(res.json().agent_handoff).toEqual({ requested: true, reason: 'agent_hand_off' });

    await waitFor(() => harness.svc.stubs.handoff.requests.length > before);
    const payload = harness.svc.stubs.handoff.requests.at(-1)?.body as Record<string, unknown>;
    expect(payload).toMatchObject({
      conversation_id: '1111111111111111111',
      propertyId: '1234567890123456789',
      sub_intent: 'agent_hand_off',
      trace_id: res.json().trace_id,
      contact: { name: 'Ana Ruiz', phone: '+14155552671', email: 'ana.ruiz@example.com' },
    });
    // A delivery is a trace of its own, linked to the chat's (docs/observability.md#traces): the body names the chat's.
    expect(harness.svc.stubs.handoff.requests.at(-1)?.headers['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    expect(updates().at(-1)?.variables.input).toEqual({
      conversationId: '1111111111111111111',
      lastIntent: 'handoff',
      contactName: 'Ana Ruiz',
      contactPhone: '+14155552671',
      contactEmail: 'ana.ruiz@example.com',
      agentHandoff: true,
    });
  });

  it('is retried with backoff until the receiver accepts it', async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ sub_intent: 'emergency_maintenance', response: 'Please call the emergency line.' })));
    let calls = 0;
    harness.svc.stubs.handoff.handle((_req, res) => sendJson(res, ++calls < 3 ? 503 : 202, {}));
    const res = await chat(chatRequest({ message: 'Water is pouring from the ceiling!' }));
    expect(res.json().agent_handoff).toEqual({ requested: true, reason: 'emergency_maintenance' });
    await waitFor(() => calls === 3);
    const keys = harness.svc.stubs.handoff.requests.slice(-3).map((r) => r.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(1);
    expect((harness.svc.stubs.handoff.requests.at(-1)?.body as { handoff_id: string }).handoff_id).toBe(keys[0]);
  });

  it('no conversation update and no handoff when there is neither contact nor handoff', async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ sub_intent: 'contact', response: 'Sure, how can we reach you?' })));
    const [updatesBefore, handoffsBefore] = [updates().length, harness.svc.stubs.handoff.requests.length];
    const res = await chat(chatRequest({ message: 'Can someone contact me later?' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().agent_handoff).toBeNull();
    expect(updates().length).toBe(updatesBefore);
    expect(harness.svc.stubs.handoff.requests.length).toBe(handoffsBefore);
  });
});

describe('Spanish replies', () => {
  it('spanish_toggle translates response and follow_up, and stores the delivered text', async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
    harness.svc.stubs.translate.handle((req, res) => sendJson(res, 200, { translated_text: `ES(${(req.body as { text: string }).text})` }));
    const before = harness.svc.stubs.translate.requests.length;
    const res = await chat(chatRequest({ spanish_toggle: true }));
    expect(res.json()).toMatchObject({
      language: 'es',
      response: 'ES(Our office is open Monday to Friday, 9am to 6pm.)',
      follow_up: 'ES(Anything else I can help with?)',
    });
    expect(harness.svc.stubs.translate.requests.slice(before).map((r) => r.body)).toEqual([
      { text: 'Our office is open Monday to Friday, 9am to 6pm.', source: 'en', target: 'es' },
      { text: 'Anything else I can help with?', source: 'en', target: 'es' },
    ]);
    expect((harness.svc.stubs.engine.requests.at(-1)?.body as { language: string }).language).toBe('es');
    const stored = harness.svc.stubs.graphql.requests.map((r) => r.body as GraphqlBody).filter((b) => b.variables.input['role'] === 'ASSISTANT').at(-1);
    expect(stored?.variables.input['content']).toBe(res.json().response);
  });

  it('a failed translation returns the English reply with language en', async () => {
    harness.svc.stubs.translate.handle((_req, res) => sendJson(res, 500, { error: 'down' }));
    const res = await chat(chatRequest({ spanish_toggle: true }));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ language: 'en', response: 'Our office is open Monday to Friday, 9am to 6pm.' });
  });

  it('an engine reply already in Spanish is not translated again', async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ response: 'Abrimos a las 9.', follow_up: '', language: 'es' })));
    const before = harness.svc.stubs.translate.requests.length;
    const res = await chat(chatRequest({ spanish_toggle: true }));
    expect(res.json()).toMatchObject({ language: 'es', response: 'Abrimos a las 9.' });
    expect(harness.svc.stubs.translate.requests.length).toBe(before);
  });
});

describe('shutdown', () => {
  it('lets a handoff delivery in flight finish before closing', async () => {
    const local = await startStubbedService();
    local.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ sub_intent: 'agent_hand_off' })));
    let delivered = false;
    local.stubs.handoff.handle(async (_req, res) => {
      await new Promise((r) => setTimeout(r, 700));
      delivered = true;
      sendJson(res, 202, {});
    });
    await local.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    await waitFor(() => local.stubs.handoff.requests.length === 1);
    expect((await local.outbox.counts())[0]).toMatchObject({ delivering: 1 });
    await local.close();
    expect(delivered).toBe(true);
    expect(local.logs.join('')).toContain('"handoffs_in_flight":0');
  });
});
