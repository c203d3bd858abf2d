/**
 * A streamed chat's outcome is what its request metric, SERVER span and log line record, by the
 * same mapping as a JSON answer (docs/observability.md#outcomes): a stream that ends with an
 * `error` part is a 503 like the JSON chat, although its HTTP status was 200 from the first byte.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { metricValue } from '../helpers/metric-value.ts';
import { sendJson } from '../helpers/stub-server.ts';
import { listenOnLoopback, partsOfType, postChat, streamEngineReply } from '../http/stream-helpers.ts';
import { startTracedService, waitFor, type TracedService } from './traced-service.ts';

let svc: TracedService;
let base: string;
beforeAll(async () => {
  svc = await startTracedService();
  base = await listenOnLoopback(svc.app);
});
afterAll(async () => {
  await svc.close();
});

const series = (status: number, mode: string) =>
  `chat_adapter_http_request_duration_seconds_count{method="POST",route="/chat_adapter",status_code="${status}",mode="${mode}"}`;
const scrape = async () => (await svc.app.inject({ method: 'GET', url: '/metrics' })).body;
const serverSpanOf = async (traceId: string) => (await svc.trace(traceId)).find((s) => s.kind === SpanKind.SERVER)!;
const completedLine = (traceId: string) =>
  svc.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['msg'] === 'request completed' && l['trace_id'] === traceId);

describe('the outcome of a chat, streamed or not', () => {
  it('counts a streamed chat whose engine fails as 503 in the request metric, with an ERROR span and a 503 log line', async () => {
    svc.stubs.engine.handle((_req, res) => sendJson(res, 503, { error: 'down' }));
    const before = await scrape();
    const answer = await postChat(base, chatRequest());
    expect(answer.status).toBe(200);
    expect(partsOfType(answer, 'error')[0]?.part['errorText']).toBe('engine unavailable');
    const failed = await waitFor(() => svc.exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.attributes['chat_adapter.stream_outcome'] === 'failed'));
    const traceId = failed.spanContext().traceId;

    const server = await serverSpanOf(traceId);
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    expect(server.attributes['error.type']).toBe('503');
    expect(server.attributes['chat_adapter.stream_outcome']).toBe('failed');
    const after = await scrape();
    expect(metricValue(after, series(503, 'stream')) - metricValue(before, series(503, 'stream'))).toBe(1);
    expect(metricValue(after, series(200, 'stream')) - metricValue(before, series(200, 'stream'))).toBe(0);
    const line = await waitFor(() => completedLine(traceId));
    expect(line).toMatchObject({ status: 503, mode: 'stream' });
  });

  it('counts the same failure answered as JSON as 503 with mode json', async () => {
    svc.stubs.engine.handle((_req, res) => sendJson(res, 503, { error: 'down' }));
    const before = await scrape();
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    expect(res.statusCode).toBe(503);
    const after = await scrape();
    expect(metricValue(after, series(503, 'json')) - metricValue(before, series(503, 'json'))).toBe(1);
  });

  it('counts a completed stream as 200 with mode stream', async () => {
    const { response: _r, ...members } = engineReply({ retrieval_type: 'rag' });
    svc.stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas: ['It is open. ', 'All day.'], done: members, gapMs: 5 }, { deltaAt: [], doneAt: undefined }));
    const before = await scrape();
    const answer = await postChat(base, chatRequest());
    expect(partsOfType(answer, 'data-chat')).toHaveLength(1);
    const traceId = (partsOfType(answer, 'data-chat')[0]!.part['data'] as { trace_id: string }).trace_id;
    const server = await serverSpanOf(traceId);
    expect(server.status.code).not.toBe(SpanStatusCode.ERROR);
    const after = await scrape();
    expect(metricValue(after, series(200, 'stream')) - metricValue(before, series(200, 'stream'))).toBe(1);
    expect((await waitFor(() => completedLine(traceId)))['status']).toBe(200);
  });

  it('counts a stream whose caller left as 499, neither a success nor a server error', async () => {
    const { response: _r, ...members } = engineReply({ retrieval_type: 'rag' });
    svc.stubs.engine.handle((_req, res) =>
      streamEngineReply(res, { deltas: ['One. ', 'Two. ', 'Three. ', 'Four.'], done: members, gapMs: 20 }, { deltaAt: [], doneAt: undefined }),
    );
    const before = await scrape();
    await postChat(base, chatRequest(), { onPart: (part) => part['type'] === 'text-delta' });
    const gone = await waitFor(() => svc.exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.attributes['chat_adapter.stream_outcome'] === 'client_gone'), 5_000);
    expect(gone.status.code).not.toBe(SpanStatusCode.ERROR);
    const after = await scrape();
    expect(metricValue(after, series(499, 'stream')) - metricValue(before, series(499, 'stream'))).toBe(1);
  });
});

describe('the engine latency the alerts read', () => {
  const sumOf = (text: string, series: string) => metricValue(text, series);
  const FIRST = 'chat_adapter_engine_first_event_seconds';
  const CALL = 'chat_adapter_downstream_duration_seconds_sum{party="engine",outcome="ok"}';

  it('times a streamed engine answer to its first event, not to its last word', async () => {
    const { response: _r, ...members } = engineReply({ retrieval_type: 'rag' });
    svc.stubs.engine.handle((_req, res) => streamEngineReply(res, { deltas: ['One. ', 'Two. ', 'Three. ', 'Four. ', 'Five.'], done: members, gapMs: 80 }, { deltaAt: [], doneAt: undefined }));
    const before = await scrape();
    const answer = await postChat(base, chatRequest());
    expect(partsOfType(answer, 'data-chat')).toHaveLength(1);
    const after = await scrape();
    expect(sumOf(after, `${FIRST}_count`) - sumOf(before, `${FIRST}_count`)).toBe(1);
    const firstEvent = sumOf(after, `${FIRST}_sum`) - sumOf(before, `${FIRST}_sum`);
    const wholeCall = sumOf(after, CALL) - sumOf(before, CALL);
    // Five deltas 80 ms apart and the done event: the call lasts about 0.4 s, its first event comes at once.
    expect(wholeCall).toBeGreaterThan(0.38);
    expect(firstEvent).toBeLessThan(wholeCall - 0.3);
  });

  it('times a JSON engine answer whole, and a failed call until it failed', async () => {
    svc.stubs.engine.handle((_req, res) => void setTimeout(() => sendJson(res, 200, engineReply()), 120));
    const before = await scrape();
    expect((await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() })).statusCode).toBe(200);
    svc.stubs.engine.handle((_req, res) => void setTimeout(() => sendJson(res, 500, {}), 60));
    expect((await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() })).statusCode).toBe(503);
    const after = await scrape();
    expect(sumOf(after, `${FIRST}_count`) - sumOf(before, `${FIRST}_count`)).toBe(2);
    expect(sumOf(after, `${FIRST}_sum`) - sumOf(before, `${FIRST}_sum`)).toBeGreaterThan(0.17);
  });
});
