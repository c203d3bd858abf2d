import { context, propagation, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_DEPLOYMENT_ENVIRONMENT_NAME, ATTR_SERVICE_INSTANCE_ID, ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from './attributes.ts';
import { lazyExporter } from './lazy-exporter.ts';
import { reportingExporter } from './reporting-exporter.ts';
import type { SpanSink } from './fast/timed-span.ts';

let globalsInstalled = false;

const TRACER_NAME = 'chat-adapter';

/** The resource, scope and processors behind each tracer made here, for spans recorded without the SDK's span path. */
const sinks = new WeakMap<Tracer, SpanSink>();

/**
 * Where spans of `tracer` go, when it was made by createTracing with its fast paths on (see
 * fast/timed-span.ts); undefined otherwise, and the callers then use the SDK's span path.
 */
export function spanSinkOf(tracer: Tracer): SpanSink | undefined {
  return sinks.get(tracer);
}

/**
 * Context propagation is process-wide (AsyncLocalStorage + W3C trace context); installed once so
 * that several app instances (tests) can each have their own tracer provider. No tracer provider is
 * registered globally: each app gets its tracer from createTracing.
 */
function installGlobals(): void {
  if (globalsInstalled) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  globalsInstalled = true;
}

/** OTEL_TRACES_SAMPLER (standard names) and its ratio, OTEL_TRACES_SAMPLER_ARG. */
export interface SamplerChoice {
  readonly name: string;
  readonly ratio: number;
}

/** The standard samplers by their OTEL_TRACES_SAMPLER name; `parentbased_always_on` (the standard default) otherwise. */
function samplerFor(choice: SamplerChoice | undefined): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(choice?.ratio ?? 1);
  switch (choice?.name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

export interface TracingOptions {
  /** DISABLE_TRACING: spans are not recorded, but trace ids are still made and propagated. */
  readonly disabled: boolean;
  /**
   * TELEMETRY_FAST_PATHS (default true): spans of this tracer may bypass the SDK's span path
   * (src/telemetry/fast/README.md). false: no span sink is registered for the tracer, so every
   * span, the SERVER span included, is the SDK's own (`tracer.startSpan`). Read once, here.
   */
  readonly fastPaths?: boolean;
  /** Which traces are recorded (when not disabled); default: all, following an incoming `traceparent`'s decision. */
  readonly sampler?: SamplerChoice;
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT (base address, e.g. `http://collector:4318`): spans go in batches,
   * over OTLP/HTTP (JSON), to `<endpoint>/v1/traces`. Unset: nothing is exported.
   */
  readonly otlpEndpoint?: string | undefined;
  /** More processors, e.g. an in-memory exporter in tests. */
  readonly spanProcessors?: readonly SpanProcessor[];
  /** Told about each batch the OTLP exporter could not deliver (requests are never affected). */
  readonly onExportError?: (reason: string) => void;
  /** How long one OTLP export may take, retries included; bounds `shutdown()` too. Default 5000. */
  readonly exportTimeoutMs?: number;
  readonly serviceVersion?: string;
  /** ENVIRONMENT, recorded as `deployment.environment.name`. */
  readonly environment?: string;
  /** `service.instance.id`: one per process, so that replicas can be told apart. */
  readonly instanceId?: string;
  /** OTEL_SERVICE_NAME: the resource's `service.name` (default `chat-adapter`). */
  readonly serviceName?: string | undefined;
  /** OTEL_RESOURCE_ATTRIBUTES: they win over the attributes above, OTEL_SERVICE_NAME over their `service.name`. */
  readonly resourceAttributes?: ReadonlyMap<string, string>;
}

export interface Tracing {
  readonly tracer: Tracer;
  /**
   * Flushes spans not yet exported (bounded by the export timeout) and stops the processors.
   * Never rejects: a failed last export is reported through `onExportError`.
   */
  shutdown(): Promise<void>;
}

/** The resource: the service's own attributes, then OTEL_RESOURCE_ATTRIBUTES, then OTEL_SERVICE_NAME (the OpenTelemetry SDK's order). */
function resourceAttributes(options: TracingOptions): Record<string, string> {
  const attributes: Record<string, string> = Object.create(null) as Record<string, string>;
  attributes[ATTR_SERVICE_NAME] = 'chat-adapter';
  if (options.serviceVersion !== undefined) attributes[ATTR_SERVICE_VERSION] = options.serviceVersion;
  if (options.environment !== undefined) attributes[ATTR_DEPLOYMENT_ENVIRONMENT_NAME] = options.environment;
  if (options.instanceId !== undefined) attributes[ATTR_SERVICE_INSTANCE_ID] = options.instanceId;
  for (const [key, value] of options.resourceAttributes ?? []) attributes[key] = value;
  if (options.serviceName !== undefined) attributes[ATTR_SERVICE_NAME] = options.serviceName;
  return { ...attributes };
}

export function createTracing(options: TracingOptions): Tracing {
  installGlobals();
  const processors: SpanProcessor[] = [...(options.spanProcessors ?? [])];
  if (!options.disabled && options.otlpEndpoint !== undefined) {
    const url = `${options.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`;
    const timeoutMillis = options.exportTimeoutMs ?? 5_000;
    // Loaded only when spans are exported.
    const exporter = lazyExporter(import('@opentelemetry/exporter-trace-otlp-http').then(({ OTLPTraceExporter }) => new OTLPTraceExporter({ url, timeoutMillis })));
    processors.push(new BatchSpanProcessor(reportingExporter(exporter, options.onExportError)));
  }
  const resource = resourceFromAttributes(resourceAttributes(options));
  // Disabled: nothing is recorded, so nothing is handed to a processor.
  const spanProcessors = options.disabled ? [] : processors;
  const sampler = options.disabled ? new AlwaysOffSampler() : samplerFor(options.sampler);
  const provider = new NodeTracerProvider({
    sampler,
    resource,
    spanProcessors,
  });
  const tracer = provider.getTracer(TRACER_NAME);
  const followsParent = options.disabled || (options.sampler?.name ?? 'parentbased_always_on').startsWith('parentbased_') || options.sampler?.name === 'always_off';
  // With no processor (no exporter configured) a span would be built for nobody: none is (fast/server-span.ts, fast/span.ts).
  // Without fast paths there is no sink: spanSinkOf answers undefined and every span takes the SDK's path.
  if (options.fastPaths !== false) sinks.set(tracer, { resource, scope: { name: TRACER_NAME }, processors: spanProcessors, recording: spanProcessors.length > 0, sampler, followsParent });
  return {
    tracer,
    shutdown: () =>
      provider.shutdown().catch((err: unknown) => {
        options.onExportError?.(`at shutdown: ${err instanceof Error ? err.message : String(err)}`);
      }),
  };
}
