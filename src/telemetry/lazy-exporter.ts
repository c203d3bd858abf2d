import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';

/**
 * A span exporter whose module is loaded in the background, so that a process that exports nothing
 * never loads it (the OTLP exporter and its transformer are several MiB). Spans handed over before
 * it is loaded are exported once it is; a failed load fails those exports, reported as any other.
 */
export function lazyExporter(loading: Promise<SpanExporter>): SpanExporter {
  let loaded: SpanExporter | undefined;
  const ready = loading.then((exporter) => (loaded = exporter));
  // Whoever needs the exporter hears of a failed load; it is never an unhandled rejection.
  ready.catch(() => undefined);
  return {
    export(spans: ReadableSpan[], done) {
      if (loaded !== undefined) return loaded.export(spans, done);
      ready.then(
        (exporter) => exporter.export(spans, done),
        (err: unknown) => done({ code: ExportResultCode.FAILED, error: err instanceof Error ? err : new Error(String(err)) }),
      );
    },
    shutdown: () => ready.then((exporter) => exporter.shutdown()),
    forceFlush: () => ready.then((exporter) => exporter.forceFlush?.()),
  };
}
