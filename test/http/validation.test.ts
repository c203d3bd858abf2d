import { describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

const harness = useStubbedService();
/** Posts a chat; a 4xx answer must have called no party (issue 11: the engine and GraphQL stubs get no call). */
async function post(payload: unknown, headers: Record<string, string> = {}) {
  const stubs = Object.values(harness.svc.stubs);
  const before = stubs.map((s) => s.requests.length);
  const res = await harness.chat(payload, headers);
  if (res.statusCode >= 400) expect(stubs.map((s) => s.requests.length), `calls made for a ${res.statusCode}`).toEqual(before);
  return res;
}

/** Asserts the exact 400 body of docs/api.md#errors and that its message names `field`. */
async function expect400(payload: unknown, field: string, headers: Record<string, string> = {}) {
  const res = await post(payload, headers);
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(Object.keys(body)).toEqual(['detail']);
  expect(Object.keys(body.detail).sort()).toEqual(['message', 'trace_id']);
  expect(body.detail.trace_id).toMatch(/^[0-9a-f]{32}$/);
  expect(body.detail.message).toContain(`'${field}'`);
}

const without = (field: string) => {
  const body = chatRequest();
  delete body[field];
  return body;
};

describe('accepted forms', () => {
  it.each([
    ['propertyId', '1234567890123456789'],
    ['propertyId', 'UHJvcGVydHk6NDI='],
    ['orgId', 'T3JnOjc='.padStart(8, 'A')],
    ['conversation_id', 'Q29udmVyc2F0aW9uOjE='],
    ['conversation_id', 'YWJj'],
    ['session_id', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['session_id', 'D41D8CD98F00B204E9800998ECF8427E'],
    ['session_id', '3f2b8c1e-9d4a-4f6b-a2c3-1e5d7f9b0a21'],
    ['session_id', 'fake_service_session_id'],
    ['graphql_api_key', 'abc-DEF_123'],
  ])('%s = %s', async (field, value) => {
    const res = await post(chatRequest({ [field]: value }));
    expect(res.statusCode).toBe(200);
    expect(harness.svc.stubs.engine.requests.at(-1)?.body).toMatchObject(field === 'graphql_api_key' ? {} : { [field]: value });
  });

  it('accepts application/json with a charset', async () => {
    const res = await post(JSON.stringify(chatRequest()), { 'content-type': 'application/json; charset=utf-8' });
    expect(res.statusCode).toBe(200);
  });

  it('accepts a message of 4000 characters surrounded by white space, and forwards it trimmed', async () => {
    const message = 'é'.repeat(4000);
    const res = await post(chatRequest({ message: `  \n${message}\t ` }));
    expect(res.statusCode).toBe(200);
    expect((harness.svc.stubs.engine.requests.at(-1)?.body as { message: string }).message).toBe(message);
  });

  it('fills the documented defaults and drops unknown members before the engine', async () => {
    const res = await post(chatRequest({ surprise: 'x', nested_unknown: { a: 1 } }));
    expect(res.statusCode).toBe(200);
    const forwarded = harness.svc.stubs.engine.requests.at(-1)?.body as Record<string, unknown>;
    expect(forwarded).toMatchObject({ spanish_support_enabled: false, spanish_toggle: false, is_first_entry: false, language: 'en' });
    expect(forwarded).not.toHaveProperty('surprise');
    expect(forwarded).not.toHaveProperty('nested_unknown');
    expect(forwarded).not.toHaveProperty('graphql_api_key');
  });
});

describe('rejected with 400 naming the field', () => {
  it.each([
    'propertyId', 'message', 'orgId', 'session_id', 'conversation_id', 'graphql_api_key', 'tourScheduleEnabled', 'history',
  ])('missing %s', async (field) => {
    await expect400(without(field), field);
  });

  it.each([
    ['propertyId', '123456789012345678'],
    ['propertyId', 'abc'],
    ['propertyId', 'YW=j'],
    ['propertyId', 'YWJjZ='],
    ['propertyId', 'ab_c'],
    ['propertyId', ''],
    ['orgId', '12345678901234567890 '],
    ['conversation_id', 12345678901234567890],
    ['session_id', 'd41d8cd98f00b204e9800998ecf8427'],
    ['session_id', '3f2b8c1e-9d4a-1f6b-a2c3-1e5d7f9b0a21'],
    ['session_id', 'fake_session'],
    ['graphql_api_key', 'abc+def'],
    ['graphql_api_key', 'abc='],
    ['graphql_api_key', ''],
    ['tourScheduleEnabled', 'true'],
    ['tourScheduleEnabled', 1],
    ['spanish_toggle', 'false'],
    ['spanish_support_enabled', null],
    ['is_first_entry', 0],
    ['history', 'none'],
    ['message', 42],
    ['entry_id', 7],
    ['reschedule_information', 'tomorrow'],
  ])('%s = %j', async (field, value) => {
    await expect400(chatRequest({ [field]: value }), field);
  });

  it('a message that is only white space', async () => {
    await expect400(chatRequest({ message: ' \n\t ' }), 'message');
  });

  it('a message over 4000 characters after trimming', async () => {
    await expect400(chatRequest({ message: 'a'.repeat(4001) }), 'message');
  });

  it('more than 50 history items', async () => {
    const history = Array.from({ length: 51 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'hi' }));
    await expect400(chatRequest({ history }), 'history');
  });

  it.each([
    [{ role: 'system', content: 'x' }, 'history[0].role'],
    [{ role: 'user' }, 'history[0].content'],
    [{ role: 'user', content: 'x'.repeat(4001) }, 'history[0].content'],
  ])('history item %j', async (item, field) => {
    await expect400(chatRequest({ history: [item] }), field);
  });

  it('a body that is not an object', async () => {
    const res = await post([chatRequest()]);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail.message).toMatch(/JSON object/);
  });

  it.each([[''], ['  \n ']])('an empty JSON body (%j)', async (raw) => {
    const res = await post(raw, { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail.message).toBe('Invalid request: the body is empty; a JSON object is required');
  });

  it('malformed JSON', async () => {
    const res = await post('{"propertyId": ', { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toEqual({ message: 'Invalid request: the body is not valid JSON', trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it.each([
    ['{"__proto__": {"isAdmin": true}}', '__proto__'],
    ['{"constructor": {"prototype": {"isAdmin": true}}}', 'constructor.prototype'],
  ])('prototype pollution %s', async (raw, member) => {
    await expect400(`${raw.slice(0, -1)}, ${JSON.stringify(chatRequest()).slice(1)}`, member, { 'content-type': 'application/json' });
  });

  it('a bad Idempotency-Key header', async () => {
    await expect400(chatRequest(), 'Idempotency-Key', { 'idempotency-key': '"an unbalanced quote' });
  });
});

describe('other statuses', () => {
  it('415 for a body that is not JSON', async () => {
    const res = await post('hello', { 'content-type': 'text/plain' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ detail: 'Content-Type must be application/json' });
  });

  it('413 for a body over 256 KiB', async () => {
    const res = await post(chatRequest({ message: 'x'.repeat(300 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(typeof res.json().detail).toBe('string');
  });

  it('404 for an unknown path', async () => {
    const res = await harness.svc.app.inject({ method: 'GET', url: '/chat' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found' });
  });

  it('heartbeat', async () => {
    const res = await harness.svc.app.inject({ method: 'GET', url: '/heartbeat' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: 1 });
  });
});
