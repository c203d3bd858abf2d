import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';
import { graphqlStubHandler } from '../helpers/stubbed-service.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { metricValue } from '../helpers/metric-value.ts';

/*
 * docs/api.md#limits through real sockets: an engine answer over 256 KiB, or nested deeper than 32 levels,
 * is out of contract: 503 `engine unavailable`, nothing stored. Members that could reach a
 * prototype (__proto__, constructor holding prototype) never reach a caller. Before, the whole answer was buffered whatever its
 * size, and a deep one was stored and then answered 500.
 */

const harness = useStubbedService();
const stubs = () => harness.svc.stubs;
const graphqlCalls = () => stubs().graphql.requests.length;

afterEach(() => {
  stubs().engine.handle((_req, res) => sendJson(res, 200, engineReply()));
  stubs().graphql.handle(graphqlStubHandler());
});

function answerRaw(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'application/json' }).end(text);
}

/** An engine answer whose `context` holds `levels` nested objects (the answer itself is level 1). */
function nestedAnswer(levels: number): string {
  const inner = `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  return JSON.stringify(engineReply()).replace('"context":null', `"context":${inner}`);
}

/** `chat_adapter_downstream_errors_total` for one party and reason, from the service's /metrics. */
async function downstreamErrors(party: string, reason: string): Promise<number> {
  const text = (await harness.svc.app.inject({ method: 'GET', url: '/metrics' })).body;
  return metricValue(text, `chat_adapter_downstream_errors_total{party="${party}",reason="${reason}"}`);
}

/** A 503, nothing stored, and the answer counted as the engine's bad answer (not as unreachable). */
async function expectEngineUnavailableAndNothingStored(message: string): Promise<void> {
  const before = graphqlCalls();
  const badReplies = await downstreamErrors('engine', 'bad_reply');
  const res = await harness.chat(chatRequest({ message }));
  expect(res.statusCode, res.body).toBe(503);
  expect(res.json()).toEqual({ detail: 'engine unavailable' });
  expect(graphqlCalls()).toBe(before);
  expect(await downstreamErrors('engine', 'bad_reply')).toBe(badReplies + 1);
}

describe('engine answer size', () => {
  it('a 300 KB answer is a 503 and nothing is stored', async () => {
    stubs().engine.handle((_req, res) => sendJson(res, 200, engineReply({ response: 'Our hours are long. '.repeat(15_000) })));
    await expectEngineUnavailableAndNothingStored('What are the office hours on weekdays?');
  });

  it('stops reading a streamed answer with no length as soon as it goes over the limit', async () => {
    let written = 0;
    let closedEarly = false;
    stubs().engine.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"response":"');
      const chunk = 'x'.repeat(16 * 1024);
      res.on('close', () => {
        closedEarly = !res.writableFinished;
      });
      const pump = () => {
        // 16 MiB in all unless the reader hangs up: the service must not wait for (or keep) it.
        while (written < 16 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end('"}');
      };
      pump();
    });
    await expectEngineUnavailableAndNothingStored('Do you have any units available next month?');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closedEarly).toBe(true);
    expect(written).toBeLessThan(4 * 1024 * 1024);
  });

  it('an answer just under the limit is still served', async () => {
    stubs().engine.handle((_req, res) => sendJson(res, 200, engineReply({ response: `${'Our office is open on weekdays. '.repeat(7_000)}` })));
    const res = await harness.chat(chatRequest({ message: 'When is the office open during the week?' }));
    expect(res.statusCode).toBe(200);
  });
});

describe('engine answer depth', () => {
  it('a 40-level answer is a 503 and nothing is stored', async () => {
    stubs().engine.handle((_req, res) => answerRaw(res, nestedAnswer(39)));
    await expectEngineUnavailableAndNothingStored('Is there parking for guests on site?');
  });

  it('a 32-level answer is served', async () => {
    stubs().engine.handle((_req, res) => answerRaw(res, nestedAnswer(31)));
    const res = await harness.chat(chatRequest({ message: 'Is there covered parking for residents?' }));
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('prototype member names in an answer', () => {
  it('never reach the caller nor a prototype', async () => {
    const item = '{"name":"Unit 2104","__proto__":{"polluted":"yes","rent":1},"constructor":{"prototype":{"polluted":"yes"}},"bedrooms":2}';
    const answer = JSON.stringify(engineReply({ retrieval_type: 'node', sub_intent: 'availability', response: 'Available units:' }))
      .replace('"agent_handoff":null', `"agent_handoff":null,"data":[${item}],"keyword_cache":{"__proto__":{"polluted":"yes"}}`);
    stubs().engine.handle((_req, res) => answerRaw(res, answer));
    const res = await harness.chat(chatRequest({ message: 'Which two bedroom units are available now?' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().response).toContain('**Unit 2104**: bedrooms: 2');
    expect(res.body).not.toMatch(/polluted|__proto__|constructor|prototype/);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('other parties have a ceiling too', () => {
  it('a GraphQL answer over 1 MiB is never buffered whole: 503 graphql unavailable', async () => {
    // A valid answer, padded to 2 MiB: read whole before, it was accepted.
    stubs().graphql.handle((req, res) => {
      const input = (req.body as { variables: { input: Record<string, unknown> } }).variables.input;
      const message = { id: '77', conversationId: input['conversationId'], role: input['role'], content: input['content'], createdAt: new Date().toISOString() };
      sendJson(res, 200, { data: { createServiceMessage: { ...message, padding: 'x'.repeat(2 * 1024 * 1024) } } });
    });
    const res = await harness.chat(chatRequest({ message: 'What are the office hours on Sunday?' }));
    expect(res.statusCode, res.body.slice(0, 200)).toBe(503);
    expect(res.json()).toEqual({ detail: 'graphql unavailable' });
  });
});
