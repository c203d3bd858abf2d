import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineClient } from '../../src/clients/engine-client.ts';
import { createGraphqlClient } from '../../src/clients/graphql-client.ts';
import type { HttpParty } from '../../src/clients/http-json.ts';
import { createPartyPool } from '../../src/clients/party-pool.ts';
import { createPropertyApiClient } from '../../src/clients/property-api-client.ts';
import { createTranslateClient } from '../../src/clients/translate-client.ts';
import { DownstreamError, type DownstreamParty } from '../../src/errors.ts';
import type { EngineRequest } from '../../schemas/engine.schema.ts';
import { CALLER_API_KEY, chatRequest } from '../helpers/fixtures.ts';
import { FAULTS, misbehave, type Fault } from '../helpers/party-faults.ts';
import { startStub, type StubServer } from '../helpers/stub-server.ts';

/*
 * docs/api.md#when-a-party-fails at the client level: whatever the party does wrong (refuses, resets mid-answer,
 * answers too late, answers 5xx, malformed JSON or out of contract), its client throws a
 * DownstreamError naming that party and saying what happened; the GraphQL client tries 3 times
 * first. (The service-level outcome of each, 503 or a degraded 200, is the fault suite's.)
 */

const TIMEOUT_MS = 300;

const FAULT_REASONS: Readonly<Record<Fault, RegExp>> = {
  refused: /: unreachable/,
  'reset before answering': /: unreachable/,
  'reset mid-answer': /: unreachable/,
  'slow past its timeout': /: timed out/,
  '5xx': /: answered 503/,
  'malformed JSON': /: answered (invalid|malformed) JSON/,
  'out of contract': /: answer out of contract/,
};
const CASES = FAULTS.map((fault) => [fault, FAULT_REASONS[fault]] as const);

let stub: StubServer;
let fault: Fault = '5xx';
let refusedUrl: string;
const pools: Pool[] = [];

beforeAll(async () => {
  stub = await startStub((_req, res) => misbehave(fault, res, TIMEOUT_MS * 3));
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  await Promise.all([...pools.map((pool) => pool.close()), stub.close()]);
});

function party(name: DownstreamParty): HttpParty {
  const baseUrl = fault === 'refused' ? refusedUrl : stub.url;
  const dispatcher = createPartyPool(baseUrl);
  pools.push(dispatcher);
  return { party: name, baseUrl, timeoutMs: TIMEOUT_MS, dispatcher };
}

const CALLS: Record<Exclude<DownstreamParty, 'handoff'>, () => Promise<unknown>> = {
  engine: () => createEngineClient(party('engine')).query({ ...chatRequest(), language: 'en' } as unknown as EngineRequest),
  translate: () => createTranslateClient(party('translate')).translate('Hello', 'en', 'es'),
  propertyApi: () => createPropertyApiClient(party('propertyApi')).units('1234567890123456789'),
  graphql: () => {
    const target = party('graphql');
    const client = createGraphqlClient({
      url: `${target.baseUrl}/graphql`,
      timeoutMs: TIMEOUT_MS,
      dispatcher: target.dispatcher,
      authorization: undefined,
      apiKey: undefined,
      retry: { baseMs: 5 },
    });
    const input = { conversationId: '1', propertyId: '1', orgId: '1', sessionId: 's', role: 'USER', content: 'hi', traceId: 't', clientMessageKey: 'k' } as const;
    return client.createMessage(input, CALLER_API_KEY);
  },
};

describe.each(Object.keys(CALLS) as (keyof typeof CALLS)[])('%s client', (name) => {
  it.each(CASES)('%s -> DownstreamError naming the party', async (which, reason) => {
    fault = which;
    const before = stub.requests.length;
    const failure = await CALLS[name]().catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DownstreamError);
    expect((failure as DownstreamError).party).toBe(name);
    expect((failure as Error).message).toMatch(new RegExp(`^${name}${reason.source}`));
    const tries = which === 'refused' ? 0 : name === 'graphql' ? 3 : 1;
    expect(stub.requests.length - before).toBe(tries);
    if (name === 'graphql') expect((failure as Error).message).toMatch(/after 3 attempt\(s\)$/);
  });
});
