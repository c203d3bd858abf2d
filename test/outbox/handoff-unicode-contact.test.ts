import { beforeAll, describe, expect, it } from 'vitest';
import { warmUpContacts } from '../../src/contacts/find-contact.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';
import { sendJson } from '../helpers/stub-server.ts';

/**
 * Issue 44 through the service: a visitor's address with non-ASCII letters (RFC 6531), written
 * decomposed, or with a zero-width or bidi control character inside, reaches the loopback handoff
 * receiver whole, and so does the conversation update; before, "josé.pérez@gmail.com" arrived as
 * "rez@gmail.com". The response shows it masked from its first letter.
 */
const harness = useStubbedService();
beforeAll(async () => {
  await warmUpContacts();
}, 30_000);

const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};
type GraphqlBody = { query: string; variables: { input: Record<string, unknown> } };
const lastUpdate = () =>
  harness.svc.stubs.graphql.requests.map((r) => r.body as GraphqlBody).filter((b) => b.query.includes('updateServiceConversation')).at(-1)?.variables.input;

describe('a Unicode address reaches the handoff receiver whole', () => {
  it.each([
    { message: 'Quiero hablar con alguien. Mi correo es josé.pérez@gmail.com', email: 'josé.pérez@gmail.com', name: null },
    { message: 'I want an agent, write to jöhn@web.de', email: 'jöhn@web.de', name: null },
    { message: 'Agent please. My name is Jo\u200bhn Carter, john\u200b.carter@gmail.com', email: 'john.carter@gmail.com', name: 'John Carter' },
    { message: 'Un agente por favor, soy Begoña Ibáñez: begoña\u200d.ibáñez@yahoo.es', email: 'begoña.ibáñez@yahoo.es', name: 'Begoña Ibáñez' },
    { message: 'agent please, mi correo es luci\u0301a.ferna\u0301ndez@gmail.com', email: 'lucía.fernández@gmail.com', name: null },
    { message: 'agent: \u202a王伟@163.com\u202c', email: '王伟@163.com', name: null },
    { message: 'agente por favor, escríbeme a jesús@peñalver.es\ufeff', email: 'jesús@peñalver.es', name: null },
  ])('$email', async ({ message, email, name }) => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ intent: 'handoff', sub_intent: 'agent_hand_off', response: 'Connecting you with an agent.' })));
    harness.svc.stubs.handoff.handle((_req, res) => sendJson(res, 202, {}));
    const before = harness.svc.stubs.handoff.requests.length;
    const res = await harness.chat(chatRequest({ message }));
    expect(res.statusCode).toBe(200);
    expect(res.json().contact_found?.email).toBe(`${Array.from(email)[0]}•••${email.slice(email.indexOf('@'))}`);

    await waitFor(() => harness.svc.stubs.handoff.requests.length > before);
    const delivered = harness.svc.stubs.handoff.requests.at(-1)?.body as { contact: Record<string, unknown> };
    expect(delivered.contact).toEqual({ name, phone: null, email });
    expect(lastUpdate()).toMatchObject({ contactEmail: email });
  });
});
