import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { OutboundRequestError } from '../../src/errors.ts';
import { createIdempotencyStore } from '../../src/idempotency/create-idempotency-store.ts';
import { noRequestMetrics } from '../../src/telemetry/request-metrics.ts';
import { createSessionTurns } from '../../src/turns/create-session-turns.ts';
import { createTracing } from '../../src/telemetry/tracing.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { fakeDeps, type FakeOptions } from '../steps/fake-deps.ts';

/** The app on fake deps; `use` gets it and its recorded calls, then it is closed. */
async function withApp(options: FakeOptions, use: (app: ReturnType<typeof buildApp>, calls: ReturnType<typeof fakeDeps>['calls']) => Promise<void>) {
  const { deps, calls } = fakeDeps(options);
  const tracing = createTracing({ disabled: false });
  const app = buildApp({ deps, tracer: tracing.tracer, routePrefix: '', loggerInstance: pino({ level: 'silent' }), requestTimeoutMs: 25_000,
    requestGuards: { idempotency: createIdempotencyStore({ ttlSeconds: 60, requestTimeoutMs: 25_000 }), turns: createSessionTurns(), metrics: noRequestMetrics } });
  try {
    await use(app, calls);
  } finally {
    await app.close();
    await tracing.shutdown();
  }
}

const INTERNAL = { detail: { message: 'Internal server error', trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) } };

describe('an unexpected error', () => {
  it('is a 500 in the documented shape, without stack or internals, and the service keeps serving', async () => {
    await withApp({ engine: new TypeError("Cannot read properties of undefined (reading 'secretInternalField')") }, async (app) => {
      const res = await app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual(INTERNAL);
      expect(res.body).not.toMatch(/secretInternalField|TypeError|at .*\.ts/);
      // the steps that ran, the failing one included, are still reported
      expect(res.headers['server-timing']).toMatch(/validateRequest;dur=.*askEngine;dur=.*total;dur=/);
      expect((await app.inject({ method: 'GET', url: '/heartbeat' })).statusCode).toBe(200);
    });
  });
});

/*
 * Issue 11: a request the service could not build or send is its own 500, never blamed on the party:
 * not a 503 for the engine, not a degraded 200 for an optional party (docs/api.md#when-a-party-fails).
 */
describe('a request to a party the service could not build', () => {
  const unbuildable = (party: 'engine' | 'translate' | 'propertyApi') => new OutboundRequestError(party, new TypeError('Do not know how to serialize a BigInt'));
  const cases: [string, FakeOptions, Record<string, unknown>][] = [
    ['engine', { engine: unbuildable('engine') }, {}],
    ['translate', { translate: async () => { throw unbuildable('translate'); } }, { spanish_toggle: true }],
    [
      'propertyApi',
      {
        engine: engineReply({ retrieval_type: 'adapter', adapter_action: 'units', intent: 'availability', sub_intent: 'units' }),
        propertyApi: { units: async () => { throw unbuildable('propertyApi'); } },
      },
      {},
    ],
  ];

  it.each(cases)('%s: 500, neither a 503 nor a degraded 200; nothing stored', async (_party, options, overrides) => {
    await withApp(options, async (app, calls) => {
      const res = await app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest(overrides) });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual(INTERNAL);
      expect(calls.createMessage).toEqual([]);
      expect(calls.logs.filter((l) => l.level === 'warn')).toEqual([]);
    });
  });
});
