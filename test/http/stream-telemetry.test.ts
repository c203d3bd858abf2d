/**
 * Observability of a streamed chat (docs/api.md#streamed-replies): the SERVER span ends when the stream ends (also
 * when the caller left), the engine call carries the GenAI attributes and its time to first chunk,
 * and the time to first text and stream outcomes are metrics.
 */
import { SpanKind } from '@opentelemetry/api';
import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as attributes from '../../src/telemetry/attributes.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { spanNamed, startTracedService, waitFor, type TracedService } from '../telemetry/traced-service.ts';
import { listenOnLoopback, partsOfType, postChat, streamEngineReply } from './stream-helpers.ts';

let svc: TracedService;
let base: string;
beforeAll(async () => {
  svc = await startTracedService();
  base = await listenOnLoopback(svc.app);
});
afterAll(async () => {
  await svc.close();
});

const { response: _r, ...members } = engineReply({ retrieval_type: 'rag' });
const deltas = 'The laundry room is on the ground floor. It is open all day. Bring your own soap.'.split(/(?<= )/);

describe('a streamed chat, observed', () => {
  it('names its GenAI attributes as the pinned conventions package (1.45, incubating) does', () => {
    const names = ['ATTR_GEN_AI_OPERATION_NAME', 'ATTR_GEN_AI_CONVERSATION_ID', 'ATTR_GEN_AI_REQUEST_STREAM', 'ATTR_GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK'] as const;
    for (const name of names) expect(attributes[name], name).toBe((incubating as unknown as Record<string, string>)[name]);
  });

  it('ends its SERVER span with the stream, after the last part was written', async () => {
    svc.stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas, done: members, gapMs: 15 }, { deltaAt: [], doneAt: undefined }));
    const answer = await postChat(base, chatRequest());
    const traceId = (partsOfType(answer, 'data-chat')[0]!.part['data'] as { trace_id: string }).trace_id;
    const spans = await svc.trace(traceId);
    const server = spans.find((s) => s.kind === SpanKind.SERVER)!;
    const engine = spanNamed(spans, 'askEngine');
    expect(engine.attributes['gen_ai.input.messages']).toBeUndefined();
    const call = spans.find((s) => s.kind === SpanKind.CLIENT && s.attributes['server.service.name'] === 'engine')!;
    expect(call.name).toBe('chat');
    expect(call.attributes['gen_ai.operation.name']).toBe('chat');
    expect(call.attributes['gen_ai.conversation.id']).toBe('1111111111111111111');
    expect(call.attributes['gen_ai.request.stream']).toBe(true);
    expect(call.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThan(0);
    expect(call.attributes['gen_ai.response.time_to_first_chunk']).toBeLessThan(call.duration[0] + call.duration[1] / 1e9);
    const storeAnswer = spanNamed(spans, 'storeAnswer');
    const endOf = (s: typeof server) => s.endTime[0] * 1e9 + s.endTime[1];
    expect(endOf(server)).toBeGreaterThanOrEqual(endOf(storeAnswer));
    expect(server.attributes['chat_adapter.stream_outcome']).toBe('completed');

    const metrics = await svc.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^chat_adapter_time_to_first_text_seconds_count [1-9]/m);
    expect(metrics.body).toMatch(/^chat_adapter_streams_total\{outcome="completed"\} [1-9]/m);
  });

  it('ends the SERVER span of a chat whose caller left, once its turn is over', async () => {
    svc.stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas, done: members, gapMs: 20 }, { deltaAt: [], doneAt: undefined }));
    const before = svc.exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER && s.attributes['chat_adapter.stream_outcome'] === 'client_gone').length;
    await postChat(base, chatRequest(), { onPart: (part) => part['type'] === 'text-delta' });
    await waitFor(
      () => (svc.exporter.getFinishedSpans().filter((s) => s.kind === SpanKind.SERVER && s.attributes['chat_adapter.stream_outcome'] === 'client_gone').length > before ? true : undefined),
      5_000,
      'the SERVER span of the chat whose caller left',
    );
    await waitFor(() => (svc.logs.some((l) => l.includes('"request completed"') && l.includes('"status":200')) ? true : undefined));
  });
});
