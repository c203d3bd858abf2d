import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, CALLER_API_KEY } from '../helpers/fixtures.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';

let svc: StubbedService;
beforeAll(async () => {
  svc = await startStubbedService();
});
afterAll(async () => {
  await svc.close();
});

describe('POST /chat_adapter against loopback stubs', () => {
  it('answers with the engine reply, stored question and answer', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.response).toBe('Our office is open Monday to Friday, 9am to 6pm.');
    expect(body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.message_id).toMatch(/^\d+$/);
    expect(res.headers['server-timing']).toContain('askEngine;dur=');
    const engineCall = svc.stubs.engine.requests.at(-1)!;
    expect(engineCall.body).not.toHaveProperty('graphql_api_key');
    expect(JSON.stringify(engineCall.body)).not.toContain(CALLER_API_KEY);
  });
});
