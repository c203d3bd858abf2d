import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ROOT_CONTEXT, context, defaultTextMapSetter, trace, type SpanContext } from '@opentelemetry/api';
import { W3CTraceContextPropagator, TraceState } from '@opentelemetry/core';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { withTraceHeaders } from '../../src/telemetry/outbound.ts';

context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

const hex = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: length, maxLength: length });
const traceState = fc.option(
  fc.uniqueArray(fc.tuple(fc.stringMatching(/^[a-z][a-z0-9_*/-]{0,8}$/), fc.stringMatching(/^[a-zA-Z0-9]{1,8}$/)), { selector: ([key]) => key, maxLength: 4 }),
  { nil: undefined },
);
const spanContexts: fc.Arbitrary<SpanContext> = fc.record({
  traceId: hex(32),
  spanId: hex(16),
  traceFlags: fc.integer({ min: 0, max: 1 }),
  state: traceState,
}).map(({ state, ...ids }) => ({
  ...ids,
  ...(state !== undefined && { traceState: new TraceState(state.map(([key, value]) => `${key}=${value}`).join(',')) }),
}));

/** What the W3C propagator the service installs would write for the same context. */
function propagatorHeaders(ids: SpanContext): Record<string, string> {
  const carrier: Record<string, string> = {};
  new W3CTraceContextPropagator().inject(trace.setSpanContext(ROOT_CONTEXT, ids), carrier, defaultTextMapSetter);
  return carrier;
}

describe('withTraceHeaders', () => {
  it('writes exactly the traceparent and tracestate the W3C propagator writes, for any span context', () => {
    fc.assert(
      fc.property(spanContexts, (ids) => {
        const sent = context.with(trace.setSpanContext(ROOT_CONTEXT, ids), () => withTraceHeaders({ 'x-api-key': 'k' }));
        expect(sent).toEqual({ 'x-api-key': 'k', ...propagatorHeaders(ids) });
      }),
    );
  });

  it('adds nothing outside a trace, or under an invalid span context', () => {
    expect(withTraceHeaders({ a: '1' })).toEqual({ a: '1' });
    const invalid = { traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 1 };
    expect(context.with(trace.setSpanContext(ROOT_CONTEXT, invalid), () => withTraceHeaders({}))).toEqual({});
  });
});
