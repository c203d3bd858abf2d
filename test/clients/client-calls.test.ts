import { createHook } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Type } from '@sinclair/typebox';
import type { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineClient } from '../../src/clients/engine-client.ts';
import { createGraphqlClient } from '../../src/clients/graphql-client.ts';
import { callJson, type HttpParty } from '../../src/clients/http-json.ts';
import { createPartyPool } from '../../src/clients/party-pool.ts';
import { DownstreamError, OutboundRequestError } from '../../src/errors.ts';
import type { EngineRequest } from '../../schemas/engine.schema.ts';
import type { CreateServiceMessageInput } from '../../schemas/graphql.schema.ts';
import { CALLER_API_KEY, chatRequest, engineReply } from '../helpers/fixtures.ts';
import { graphqlStubHandler, useStubbedService } from '../helpers/stubbed-service.ts';
import { sendJson, startStub, type StubServer } from '../helpers/stub-server.ts';

/*
 * The clients against real loopback parties: a request the service cannot build or send is its own
 * defect (never blamed on the party, never retried), no call is made once the chat's deadline has
 * passed, no timer outlives its call, and connections are kept alive.
 */

let engineStub: StubServer;
let graphqlStub: StubServer;
const pools: Pool[] = [];

function partyAt(party: HttpParty['party'], baseUrl: string): HttpParty {
  const dispatcher = createPartyPool(baseUrl);
  pools.push(dispatcher);
  return { party, baseUrl, timeoutMs: 5000, dispatcher };
}

const engineRequest = (extra: Record<string, unknown> = {}): EngineRequest =>
  ({ ...chatRequest(), message: 'hello', language: 'en', ...extra }) as unknown as EngineRequest;

const messageInput: CreateServiceMessageInput = {
  conversationId: '1111111111111111111',
  propertyId: '1234567890123456789',
  orgId: '9876543210987654321',
  sessionId: 'fake_service_session_id',
  role: 'USER',
  content: 'hello',
  traceId: '0'.repeat(32),
  clientMessageKey: 'client-calls-test:question',
};

beforeAll(async () => {
  engineStub = await startStub((_req, res) => sendJson(res, 200, engineReply()));
  graphqlStub = await startStub(graphqlStubHandler());
});

afterAll(async () => {
  await Promise.all([...pools.map((pool) => pool.close()), engineStub.close(), graphqlStub.close()]);
});

const graphqlClient = () =>
  createGraphqlClient({ url: `${graphqlStub.url}/graphql`, timeoutMs: 5000, dispatcher: partyAt('graphql', graphqlStub.url).dispatcher, authorization: 'a', apiKey: 'k' });

describe('a request the service cannot build or send is its own failure, not the party\'s', () => {
  it('an engine request that cannot be serialized (cyclic) -> OutboundRequestError, the engine is not called', async () => {
    const cyclic: Record<string, unknown> = { slot: 'x' };
    cyclic['self'] = cyclic;
    const before = engineStub.requests.length;
    const failure = await createEngineClient(partyAt('engine', engineStub.url))
      .query(engineRequest({ schedule_information: cyclic }))
      .catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(OutboundRequestError);
    expect(failure).not.toBeInstanceOf(DownstreamError);
    expect(engineStub.requests.length).toBe(before);
  });

  it('a header value that cannot be sent -> OutboundRequestError after one try, the GraphQL API is not called', async () => {
    const before = graphqlStub.requests.length;
    const failure = await graphqlClient().createMessage(messageInput, 'bad\nkey').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(OutboundRequestError);
    expect(graphqlStub.requests.length).toBe(before);
  });

  it('a path that cannot be sent -> OutboundRequestError, nothing reaches the party', async () => {
    const before = engineStub.requests.length;
    const reply = TypeCompiler.Compile(Type.Object({}));
    const failure = await callJson(partyAt('propertyApi', engineStub.url), { method: 'GET', path: '/api/v1/units?propertyId=a b', reply }).catch(
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(OutboundRequestError);
    expect(engineStub.requests.length).toBe(before);
  });

  it('a refused connection is still the party\'s failure (DownstreamError)', async () => {
    const failure = await createEngineClient(partyAt('engine', 'http://127.0.0.1:9')).query(engineRequest()).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DownstreamError);
    expect((failure as Error).message).toBe('engine: unreachable');
  });
});

describe('the chat deadline', () => {
  it('has passed: neither the engine nor the GraphQL API is called', async () => {
    const engineBefore = engineStub.requests.length;
    const graphqlBefore = graphqlStub.requests.length;
    const passed = performance.now() - 1;
    const engineFailure = await createEngineClient(partyAt('engine', engineStub.url)).query(engineRequest(), passed).catch((err: unknown) => err);
    const graphqlFailure = await graphqlClient().createMessage(messageInput, CALLER_API_KEY, passed).catch((err: unknown) => err);
    expect(engineFailure).toBeInstanceOf(DownstreamError);
    expect(graphqlFailure).toBeInstanceOf(DownstreamError);
    expect((engineFailure as Error).message).toBe('engine: not called: the chat deadline has passed');
    expect(engineStub.requests.length).toBe(engineBefore);
    expect(graphqlStub.requests.length).toBe(graphqlBefore);
  });
});

describe('resources per call', () => {
  it('no timer outlives its call (AbortSignal.timeout kept one alive for the whole 30 s after each)', async () => {
    const engine = createEngineClient({ ...partyAt('engine', engineStub.url), timeoutMs: 30_000 });
    await engine.query(engineRequest()); // the pool's connection and undici's own clock are set up
    // Only timers of the engine's 30 s timeout: the in-process stub's own sockets set timers too.
    const live = new Set<number>();
    const hook = createHook({
      init: (id, type, _trigger, resource) => void (type === 'Timeout' && (resource as { _idleTimeout?: number })._idleTimeout === 30_000 && live.add(id)),
      destroy: (id) => void live.delete(id),
    }).enable();
    try {
      await Promise.all(Array.from({ length: 50 }, () => engine.query(engineRequest())));
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
    } finally {
      hook.disable();
    }
    expect(live.size).toBe(0);
  });

  it('keeps connections alive: sequential calls reuse their connections', async () => {
    let connections = 0;
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => sendJson(res, 200, engineReply()));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const engine = createEngineClient(partyAt('engine', `http://127.0.0.1:${(server.address() as AddressInfo).port}`));
      for (let i = 0; i < 10; i++) await engine.query(engineRequest());
      // undici may open a second one while the first is being released; never one per call.
      expect(connections).toBeLessThanOrEqual(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('through the service (issue 11)', () => {
  const harness = useStubbedService();

  it('a body the service cannot forward is never blamed on the engine: no 503, no engine call', async () => {
    // Written as text: the test's own JSON.stringify would overflow the stack as the service's does.
    const deep = `${'{"next":'.repeat(10_000)}{}${'}'.repeat(10_000)}`;
    const body = JSON.stringify(chatRequest({ schedule_information: 'DEEP' })).replace('"DEEP"', deep);
    const before = harness.svc.stubs.engine.requests.length;
    const res = await harness.svc.app.inject({ method: 'POST', url: '/chat_adapter', payload: body, headers: { 'content-type': 'application/json' } });
    // A 500 here (the engine request cannot be serialized) until the depth limit of docs/api.md#overload-and-input-depth
    // answers 400 before any step runs; never 503 "engine unavailable".
    expect([400, 500]).toContain(res.statusCode);
    expect(res.json()).not.toEqual({ detail: 'engine unavailable' });
    expect(harness.svc.stubs.engine.requests.length).toBe(before);
  });
});
