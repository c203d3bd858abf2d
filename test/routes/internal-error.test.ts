import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createIdempotencyStore } from '../../src/idempotency/create-idempotency-store.ts';
import { noRequestMetrics } from '../../src/telemetry/request-metrics.ts';
import { createSessionTurns } from '../../src/turns/create-session-turns.ts';
import { createTracing } from '../../src/telemetry/tracing.ts';
import { chatRequest } from '../helpers/fixtures.ts';
import { fakeDeps } from '../steps/fake-deps.ts';

describe('an unexpected error', () => {
  it('is a 500 in the documented shape, without stack or internals, and the service keeps serving', async () => {
    const { deps } = fakeDeps({ engine: new TypeError("Cannot read properties of undefined (reading 'secretInternalField')") });
    const tracing = createTracing({ disabled: false });
    const app = buildApp({ deps, tracer: tracing.tracer, routePrefix: '', loggerInstance: pino({ level: 'silent' }), requestTimeoutMs: 25_000,
    requestGuards: { idempotency: createIdempotencyStore({ ttlSeconds: 60, requestTimeoutMs: 25_000 }), turns: createSessionTurns(), metrics: noRequestMetrics } });
    try {
      const res = await app.inject({ method: 'POST', url: '/chat_adapter', payload: chatRequest() });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: { message: 'Internal server error', trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) } });
      expect(res.body).not.toMatch(/secretInternalField|TypeError|at .*\.ts/);
      // the steps that ran, the failing one included, are still reported
      expect(res.headers['server-timing']).toMatch(/validateRequest;dur=.*askEngine;dur=.*total;dur=/);
      expect((await app.inject({ method: 'GET', url: '/heartbeat' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await tracing.shutdown();
    }
  });
});
