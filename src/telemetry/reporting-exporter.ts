import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-node';

/**
 * Wraps an exporter so that a batch it could not deliver is reported (e.g. as a warn log line)
 * instead of vanishing into the OpenTelemetry diagnostics channel. Never throws into the caller:
 * export runs in the batch processor's background, apart from any request.
 */
export function reportingExporter(inner: SpanExporter, onError: ((reason: string) => void) | undefined): SpanExporter {
  if (onError === undefined) return inner;
  return {
    export(spans: ReadableSpan[], resultCallback) {
      inner.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) {
          try {
            onError(result.error?.message ?? 'export failed');
          } catch {
            // A failing reporter must not break the export pipeline.
          }
        }
        resultCallback(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}
