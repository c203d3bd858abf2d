import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatRequest } from '../helpers/fixtures.ts';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';

/**
 * With no exporter configured no span would leave the process, so none is built; the ids must
 * still be exactly what they are with an exporter: the response's trace id, the caller's trace
 * continued, the sampler's decision in every traceparent sent on.
 */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;

interface Sent {
  readonly traceId: string;
  readonly parentId: string;
  readonly flags: string;
  readonly tracestate: unknown;
}

function sentBy(requests: readonly { headers: Record<string, unknown> }[]): Sent {
  const last = requests.at(-1);
  if (last === undefined) throw new Error('the party was not called');
  const match = TRACEPARENT.exec(String(last.headers['traceparent']));
  if (match === null) throw new Error(`no valid traceparent: ${String(last.headers['traceparent'])}`);
  return { traceId: match[1]!, parentId: match[2]!, flags: match[3]!, tracestate: last.headers['tracestate'] };
}

describe('no exporter configured: trace ids without spans', () => {
  let svc: StubbedService;
  beforeAll(async () => {
    svc = await startStubbedService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('returns a new trace id and sends it on, sampled, to every party with the request as the parent', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    expect(res.statusCode).toBe(200);
    const traceId = res.json().trace_id as string;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceId).not.toBe('0'.repeat(32));

    const engine = sentBy(svc.stubs.engine.requests);
    const graphql = sentBy(svc.stubs.graphql.requests);
    expect(engine).toMatchObject({ traceId, flags: '01' });
    expect(graphql).toMatchObject({ traceId, flags: '01' });
    // With spans each call would name its own CLIENT span as the parent; without, both name the request's.
    expect(graphql.parentId).toBe(engine.parentId);
    expect(engine.parentId).not.toBe('0'.repeat(16));
  });

  it("continues a caller's trace and its tracestate under a span id of its own", async () => {
    const incoming = { traceId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', spanId: '1122334455667788' };
    const headers = { traceparent: `00-${incoming.traceId}-${incoming.spanId}-01`, tracestate: 'vendor=abc' };
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers });
    expect(res.json().trace_id).toBe(incoming.traceId);
    const engine = sentBy(svc.stubs.engine.requests);
    expect(engine).toMatchObject({ traceId: incoming.traceId, flags: '01', tracestate: 'vendor=abc' });
    expect(engine.parentId).not.toBe(incoming.spanId);
  });

  it("follows a caller's decision not to sample (the default parent-based sampler)", async () => {
    const headers = { traceparent: '00-b1b2c3d4e5f60718293a4b5c6d7e8f90-1122334455667788-00' };
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(), headers });
    expect(res.json().trace_id).toBe('b1b2c3d4e5f60718293a4b5c6d7e8f90');
    expect(sentBy(svc.stubs.engine.requests).flags).toBe('00');
  });

  it('makes a different trace id for every request', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() })).json().trace_id);
    expect(ids.size).toBe(5);
  });
});

describe('no exporter, a sampler that leaves traces out', () => {
  let svc: StubbedService;
  beforeAll(async () => {
    svc = await startStubbedService({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
  });
  afterAll(async () => {
    await svc.close();
  });

  it("sends the sampler's decision on: flags 00", async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
    expect(res.statusCode).toBe(200);
    expect(sentBy(svc.stubs.engine.requests)).toMatchObject({ traceId: res.json().trace_id, flags: '00' });
  });
});
