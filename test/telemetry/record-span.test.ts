import { describe, expect, it } from 'vitest';
import { ROOT_CONTEXT, SpanKind, TraceFlags, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { recordSpan } from '../../src/telemetry/fast/span.ts';
import { createTracing, type SamplerChoice } from '../../src/telemetry/tracing.ts';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

/** Runs one recordSpan call under a remote parent with the given flags; returns the spans recorded and the span `fn` saw. */
async function callUnder(flags: number, sampler: SamplerChoice, disabled = false) {
  const exporter = new InMemorySpanExporter();
  const tracing = createTracing({ disabled, sampler, spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: PARENT_ID, traceFlags: flags, isRemote: true });
  const seen = await context.with(parent, () =>
    recordSpan(tracing.tracer, () => ({ name: 'POST /handoff', kind: SpanKind.CLIENT }), async (span) => trace.getActiveSpan()?.spanContext() ?? span.spanContext()),
  );
  const spans = exporter.getFinishedSpans();
  await tracing.shutdown();
  return { spans, seen };
}

describe('recordSpan under a parent from elsewhere (a delivery worker, an incoming traceparent)', () => {
  it('records a child of a sampled parent, active while the call runs', async () => {
    const { spans, seen } = await callUnder(TraceFlags.SAMPLED, { name: 'parentbased_always_on', ratio: 1 });
    expect(spans.map((s) => [s.name, s.parentSpanContext?.spanId])).toEqual([['POST /handoff', PARENT_ID]]);
    expect(seen.spanId).toBe(spans[0]!.spanContext().spanId);
  });

  it('makes no span under a parent not sampled when the sampler follows the parent, and calls out under the parent', async () => {
    for (const [sampler, disabled] of [[{ name: 'parentbased_always_on', ratio: 1 }, false], [{ name: 'parentbased_always_on', ratio: 1 }, true]] as const) {
      const { spans, seen } = await callUnder(TraceFlags.NONE, sampler, disabled);
      expect(spans).toEqual([]);
      expect(seen).toMatchObject({ traceId: TRACE_ID, spanId: PARENT_ID });
    }
  });

  it('leaves the decision to the sampler when it does not follow the parent (traceidratio keeps this one)', async () => {
    const { spans } = await callUnder(TraceFlags.NONE, { name: 'traceidratio', ratio: 1 });
    expect(spans.map((s) => s.name)).toEqual(['POST /handoff']);
  });
});
