import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  NodeTracerProvider,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';

let globalsInstalled = false;

/**
 * Context propagation is process-wide (AsyncLocalStorage + W3C trace context); installed once so
 * that several app instances (tests) can each have their own tracer provider.
 */
function installGlobals(): void {
  if (globalsInstalled) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  globalsInstalled = true;
}

export interface TracingOptions {
  /** DISABLE_TRACING: spans are not recorded, but trace ids are still made and propagated. */
  readonly disabled: boolean;
  readonly spanProcessors?: readonly SpanProcessor[];
}

export interface Tracing {
  readonly tracer: Tracer;
  /** Flushes spans not yet exported and stops the processors. */
  shutdown(): Promise<void>;
}

export function createTracing(options: TracingOptions): Tracing {
  installGlobals();
  const provider = new NodeTracerProvider({
    sampler: options.disabled ? new AlwaysOffSampler() : new AlwaysOnSampler(),
    spanProcessors: [...(options.spanProcessors ?? [])],
  });
  return {
    tracer: provider.getTracer('chat-adapter'),
    shutdown: () => provider.shutdown(),
  };
}

/** The trace id of the active span (32 lowercase hex). */
export function activeTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}
