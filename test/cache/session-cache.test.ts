import { describe, expect, it } from 'vitest';
import { chatRequest, engineReply, newSessionId } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';
import { sendJson } from '../helpers/stub-server.ts';

const harness = useStubbedService();

const chat = (payload: Record<string, unknown>) => harness.chat(payload);
const engineCalls = () => harness.svc.stubs.engine.requests.length;

describe('session cache in the chat flow (in-process)', () => {
  it('reuses a fixed reply for the same question without calling the engine', async () => {
    const session_id = newSessionId();
    const first = await chat(chatRequest({ session_id, message: 'What time does the leasing office open on weekdays?' }));
    const before = engineCalls();
    const again = await chat(chatRequest({ session_id, message: 'what time does the leasing office open on weekdays' }));
    expect(engineCalls()).toBe(before);
    expect(again.statusCode).toBe(200);
    expect(again.json().response).toBe(first.json().response);
    expect(again.json().latency.service_engine_latency).toBe(0);
    expect(again.json().latency.steps).toHaveProperty('askEngineCacheHit');
    expect(again.json().latency.steps).not.toHaveProperty('askEngine');
    // still stored as its own exchange
    expect(again.json().message_id).not.toBe(first.json().message_id);
  });

  it('asks the engine again when the questions differ in a number', async () => {
    const session_id = newSessionId();
    await chat(chatRequest({ session_id, message: 'How much is a 2 bedroom apartment per month?' }));
    const before = engineCalls();
    await chat(chatRequest({ session_id, message: 'How much is a 3 bedroom apartment per month?' }));
    expect(engineCalls()).toBe(before + 1);
  });

  it('never reuses node or adapter replies', async () => {
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply({ retrieval_type: 'adapter', adapter_action: 'units', response: 'Units.' })));
    const session_id = newSessionId();
    await chat(chatRequest({ session_id, message: 'Which apartments are available right now?' }));
    const before = engineCalls();
    await chat(chatRequest({ session_id, message: 'Which apartments are available right now?' }));
    expect(engineCalls()).toBe(before + 1);
    harness.svc.stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
  });

  it('does not share entries between tenants', async () => {
    const session_id = newSessionId();
    const message = 'Do you have covered parking for residents?';
    await chat(chatRequest({ session_id, message }));
    const before = engineCalls();
    await chat(chatRequest({ session_id, message, orgId: '5555555555555555555' }));
    expect(engineCalls()).toBe(before + 1);
  });

  it('uses cached messages as history when the request sends none', async () => {
    const session_id = newSessionId();
    await chat(chatRequest({ session_id, message: 'Hello, I am looking for an apartment' }));
    await chat(chatRequest({ session_id, message: 'Is there a gym in the building?' }));
    await chat(chatRequest({ session_id, message: 'And a swimming pool as well?' }));
    const history = (harness.svc.stubs.engine.requests.at(-1)?.body as { history: { role: string; content: string }[] }).history;
    expect(history).toHaveLength(4);
    expect(history.map((h) => h.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(history[2]?.content).toBe('Is there a gym in the building?');
  });
});
