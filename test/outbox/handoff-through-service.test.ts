/**
 * docs/contracts.md#handoff-receiver through the real service (real clients, sockets and SQLite outbox): a visitor asks for
 * a person, the chat answers with the masked contact it understood, and the receiver gets a signed (Standard Webhooks)
 * body with the conversation, the reply, the language and the time of the request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';
import { waitFor } from './outbox-contract.ts';
import { startSigningReceiver } from './signing-receiver.ts';

const secret = (seed: string) => `whsec_${Buffer.from(seed.padEnd(32, '.')).toString('base64')}`;
const SECRET = secret('the service test secret');
const MESSAGE = 'pls have someone call me, its Dana. old number 512-339-2204, new one is 512-870-6651';

describe('a handoff an agent can act on, signed', () => {
  let receiver: Awaited<ReturnType<typeof startSigningReceiver>>;
  let svc: StubbedService;
  beforeAll(async () => {
    receiver = await startSigningReceiver([SECRET]);
    svc = await startStubbedService({ HANDOFF_URL: receiver.url, HANDOFF_SIGNING_SECRET: `${SECRET},${secret('the previous secret')}` });
    svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ intent: 'contact', sub_intent: 'agent_hand_off', response: 'Someone from the team will call you.' })));
  });
  afterAll(async () => {
    await svc?.close();
    await receiver?.close();
  });

  it('answers with the masked contact and delivers the docs/contracts.md#handoff-receiver body with a valid signature', async () => {
    const history = [
      { role: 'user', content: 'is the pool open?' },
      { role: 'assistant', content: 'The pool is open 8am to 10pm.' },
    ];
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest({ message: MESSAGE, history }) });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.contact_found).toEqual({ name: 'D•••', phone: '•••• 6651', email: null });
    expect(res.body).not.toContain('870-6651');

    await waitFor(() => receiver.received[0], 5_000, 'the delivery');
    const [got] = receiver.received;
    expect(got?.status).toBe(202);
    expect(got?.refused).toBeUndefined();
    expect(got?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
    const body = JSON.parse(got?.body ?? '{}');
    expect(body).toMatchObject({
      sub_intent: 'agent_hand_off',
      message: MESSAGE,
      contact: { name: 'Dana', phone: '+15128706651', email: null },
      language: 'en',
      reply: answer.response,
      trace_id: answer.trace_id,
    });
    expect(body.transcript).toEqual([...history, { role: 'user', content: MESSAGE }, { role: 'assistant', content: answer.response }]);
    expect(Math.abs(Date.parse(body.requested_at) - Date.now())).toBeLessThan(10_000);
    // The secret never reaches a log line.
    expect(svc.logs.join('\n')).not.toContain(SECRET);
  });
});
