import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { startStubbedService, type StubbedService } from '../helpers/stubbed-service.ts';

export interface TracedService extends StubbedService {
  readonly exporter: InMemorySpanExporter;
  /** The finished spans of one trace, once its SERVER span has ended. */
  trace(traceId: string): Promise<ReadableSpan[]>;
}

/** Polls `check` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(check: () => T | undefined, timeoutMs = 3_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The stubbed service with an in-memory span exporter behind a simple (synchronous) processor. */
export async function startTracedService(env: Record<string, string> = {}): Promise<TracedService> {
  const exporter = new InMemorySpanExporter();
  const svc = await startStubbedService(env, { spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const spansOf = (traceId: string) => exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  return Object.assign(svc, {
    exporter,
    trace: (traceId: string) =>
      waitFor(
        () => {
          const spans = spansOf(traceId);
          return spans.some((s) => s.kind === SpanKind.SERVER) ? spans : undefined;
        },
        3_000,
        `the server span of trace ${traceId}`,
      ),
  });
}

export function spanNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((s) => s.name === name);
  if (found.length !== 1) throw new Error(`expected one span '${name}', found ${found.length}: ${spans.map((s) => s.name).join(', ')}`);
  return found[0]!;
}

export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);
}

/** Everything a span could leak through: its name, attributes, events and status message. */
export function spanText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(spans.map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })));
}
