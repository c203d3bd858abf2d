import { afterEach, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { CONTACT_MESSAGE, PLAIN_MESSAGE, leaks } from './private-data.ts';
import { spanNamed, spanText, startTracedService, waitFor, type TracedService } from './traced-service.ts';

let svc: TracedService | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
});

/** A contact message that also asks for a person (handoff) and a Spanish reply (translation). */
async function contactChat(service: TracedService) {
  service.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ intent: 'support', sub_intent: 'agent_hand_off' })));
  const before = service.stubs.handoff.requests.length;
  const res = await service.app.inject({
    method: 'POST',
    url: '/chat_adapter',
    payload: chatRequest({ message: CONTACT_MESSAGE, spanish_toggle: true }),
  });
  expect(res.statusCode).toBe(200);
  const traceId = res.json().trace_id as string;
  // The GraphQL stub was really sent the contact: the spans had the chance to leak it.
  const update = service.stubs.graphql.requests.find((r) => JSON.stringify(r.body).includes('updateServiceConversation'));
  expect(JSON.stringify(update?.body)).toContain('maria.lopez@example.com');
  await waitFor(() => service.stubs.handoff.requests[before]);
  await waitFor(() => service.exporter.getFinishedSpans().find((s) => s.name === 'POST /handoff'));
  return traceId;
}

describe('span privacy', () => {
  it('records no message text, contact detail or secret in any span by default', async () => {
    svc = await startTracedService();
    const traceId = await contactChat(svc);
    const plain = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest({ message: PLAIN_MESSAGE }) });
    expect(plain.statusCode).toBe(200);
    await svc.trace(traceId);
    await svc.trace(plain.json().trace_id);

    const spans = svc.exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(30);
    expect(leaks(spanText(spans))).toEqual([]);
  });

  it('TRACE_MESSAGE_TEXT=true adds the message to the askEngine span, and nowhere else', async () => {
    svc = await startTracedService({ TRACE_MESSAGE_TEXT: 'true' });
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest({ message: `  ${PLAIN_MESSAGE} ` }) });
    const spans = await svc.trace(res.json().trace_id);
    const askEngine = spanNamed(spans, 'askEngine');
    const messages = JSON.parse(String(askEngine.attributes['gen_ai.input.messages']));
    expect(messages).toEqual([{ role: 'user', parts: [{ type: 'text', content: PLAIN_MESSAGE }] }]);
    expect(leaks(spanText(spans.filter((s) => s !== askEngine)))).toEqual([]);
  });
});
