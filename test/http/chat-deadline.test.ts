import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { graphqlStubHandler, useStubbedService } from '../helpers/stubbed-service.ts';
import { sendJson, type StubHandler } from '../helpers/stub-server.ts';

/*
 * docs/api.md#deadline: every chat is answered within REQUEST_TIMEOUT_MS, whatever a party's own timeout
 * (30 s for the engine). A critical party that is still silent at the deadline fails the chat with
 * a 503 naming it; the optional ones degrade the reply and leave time to store it.
 */
const DEADLINE_MS = 2000;
const harness = useStubbedService({ REQUEST_TIMEOUT_MS: String(DEADLINE_MS) });

/** Answers long after the chat's deadline (and within no party's timeout but the property API's). */
const silentFor = (ms: number, answer: StubHandler): StubHandler => async (req, res) => {
  await new Promise((r) => setTimeout(r, ms));
  await answer(req, res);
};

type GraphqlBody = { query: string; variables: { input: Record<string, unknown> } };
const storedMessages = (from: number) =>
  harness.svc.stubs.graphql.requests
    .slice(from)
    .map((r) => (r.body as GraphqlBody).variables.input)
    .filter((input) => input['clientMessageKey'] !== undefined);

async function timedChat(payload: Record<string, unknown>) {
  const started = performance.now();
  const res = await harness.chat(payload);
  return { res, ms: performance.now() - started };
}

afterEach(() => {
  const { stubs } = harness.svc;
  stubs.engine.handle((_req, res) => sendJson(res, 200, engineReply()));
  stubs.graphql.handle(graphqlStubHandler());
  stubs.translate.handle((req, res) => sendJson(res, 200, { translated_text: `[es] ${(req.body as { text: string }).text}` }));
  stubs.propertyApi.handle((_req, res) => sendJson(res, 404, { error: 'not stubbed' }));
});

describe('the chat deadline (REQUEST_TIMEOUT_MS)', () => {
  it('an engine silent past the deadline -> 503 engine unavailable at the deadline, not at its 30 s timeout; nothing stored', async () => {
    harness.svc.stubs.engine.handle(silentFor(6000, (_req, res) => sendJson(res, 200, engineReply())));
    const before = harness.svc.stubs.graphql.requests.length;
    const { res, ms } = await timedChat(chatRequest());
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: 'engine unavailable' });
    expect(ms).toBeGreaterThan(DEADLINE_MS - 200);
    expect(ms).toBeLessThan(DEADLINE_MS + 1500);
    expect(harness.svc.stubs.graphql.requests.length).toBe(before);
  });

  it('a GraphQL API silent past the deadline -> 503 graphql unavailable, no retry past the deadline, no answer stored', async () => {
    harness.svc.stubs.graphql.handle(silentFor(6000, graphqlStubHandler()));
    const before = harness.svc.stubs.graphql.requests.length;
    const { res, ms } = await timedChat(chatRequest());
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ detail: 'graphql unavailable' });
    expect(ms).toBeLessThan(DEADLINE_MS + 1500);
    const tried = storedMessages(before);
    expect(tried.map((input) => input['role'])).toEqual(['USER']);
  });

  it('a translate service silent past the deadline -> 200 in English within the deadline, question and answer stored', async () => {
    harness.svc.stubs.translate.handle(silentFor(6000, (_req, res) => sendJson(res, 200, { translated_text: 'tarde' })));
    const before = harness.svc.stubs.graphql.requests.length;
    const { res, ms } = await timedChat(chatRequest({ message: 'What are your office hours?', spanish_toggle: true }));
    expect(res.statusCode).toBe(200);
    expect(res.json().language).toBe('en');
    expect(res.json().response).toBe(engineReply().response);
    expect(ms).toBeLessThan(DEADLINE_MS);
    expect(storedMessages(before).map((input) => [input['role'], input['content']])).toEqual([
      ['USER', 'What are your office hours?'],
      ['ASSISTANT', engineReply().response],
    ]);
  });

  it('a property API silent past the deadline -> 200 with the polite reply and not_available within the deadline, answer stored', async () => {
    harness.svc.stubs.engine.handle((_req, res) =>
      sendJson(res, 200, engineReply({ retrieval_type: 'adapter', adapter_action: 'units', intent: 'availability', sub_intent: 'units', response: 'Checking.' })),
    );
    harness.svc.stubs.propertyApi.handle(silentFor(6000, (_req, res) => sendJson(res, 200, { units: [] })));
    const before = harness.svc.stubs.graphql.requests.length;
    const { res, ms } = await timedChat(chatRequest({ message: 'Do you have any units available?' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().not_available).toEqual(['units']);
    expect(ms).toBeLessThan(DEADLINE_MS);
    expect(storedMessages(before).map((input) => input['role'])).toEqual(['USER', 'ASSISTANT']);
  });
});
