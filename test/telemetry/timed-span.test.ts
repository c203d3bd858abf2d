import { describe, expect, it } from 'vitest';
import { SpanStatusCode, TraceFlags } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { spanNow } from '../../src/telemetry/fast/span-clock.ts';
import { TimedSpan, type SpanSink } from '../../src/telemetry/fast/timed-span.ts';

const PARENT = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.SAMPLED };

function collectingSink(): { sink: SpanSink; ended: ReadableSpan[] } {
  const ended: ReadableSpan[] = [];
  const processor = { onEnd: (span: ReadableSpan) => ended.push(span) } as unknown as SpanProcessor;
  return { sink: { resource: resourceFromAttributes({}), scope: { name: 'test' }, processors: [processor], recording: true, sampler: new AlwaysOnSampler(), followsParent: true }, ended };
}

describe('TimedSpan', () => {
  it('keeps each span\'s events, links and status its own, though spans without them share empty ones', () => {
    const { sink, ended } = collectingSink();
    const plain = new TimedSpan(sink, 'plain', PARENT, spanNow());
    const busy = new TimedSpan(sink, 'busy', PARENT, spanNow());
    busy.addEvent('attempt failed', { attempt: 1 });
    busy.addLink({ context: { ...PARENT, spanId: '1111111111111111' } });
    busy.setStatus({ code: SpanStatusCode.ERROR, message: 'engine answered 503' });
    plain.end();
    busy.end();
    busy.addEvent('after the end');

    const [first, second] = ended;
    expect(first!.events).toEqual([]);
    expect(first!.links).toEqual([]);
    expect(first!.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(second!.events.map((e) => [e.name, e.attributes])).toEqual([['attempt failed', { attempt: 1 }]]);
    expect(second!.links.map((l) => l.context.spanId)).toEqual(['1111111111111111']);
    expect(second!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'engine answered 503' });
  });

  it('has its end time and duration only once ended, each its own', () => {
    const { sink, ended } = collectingSink();
    const a = new TimedSpan(sink, 'a', PARENT, [100, 0]);
    const b = new TimedSpan(sink, 'b', PARENT, [100, 0]);
    expect(a.ended).toBe(false);
    a.end([100, 500]);
    b.end([101, 0]);
    expect(ended.map((s) => [s.endTime, s.duration])).toEqual([
      [[100, 500], [0, 500]],
      [[101, 0], [1, 0]],
    ]);
  });
});
