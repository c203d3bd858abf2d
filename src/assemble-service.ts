import type { FastifyInstance } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import { buildApp } from './app.ts';
import type { Config, Party } from './config/config.schema.ts';
import { createDeps } from './deps.ts';
import type { Deps } from './pipeline/deps.ts';
import { createMetrics, type Metrics } from './telemetry/metrics.ts';
import { createTracing, type TracingOptions } from './telemetry/tracing.ts';

const SERVICE_VERSION = '1.5.0';

/** Tracing settings a caller may add to the configured ones (tests: in-memory exporters). */
export type ExtraTracingOptions = Pick<TracingOptions, 'spanProcessors' | 'onExportError' | 'exportTimeoutMs'>;

export interface AssembledService {
  readonly app: FastifyInstance;
  readonly deps: Deps;
  readonly metrics: Metrics;
  /**
   * Stops serving: stops accepting, finishes requests in flight, waits (at most `graceMs`) for
   * handoffs still being delivered, closes pools and cache. Resolves with the handoffs left pending.
   */
  stop(graceMs: number): Promise<number>;
  /** Flushes spans not yet exported; call last, so the handoffs' spans go out too. */
  flushSpans(): Promise<void>;
}

/** Tracer, metrics, clients and the Fastify app for the given party addresses (not listening). */
export function assembleService(
  config: Config,
  urls: Readonly<Record<Party, string>>,
  logger: PinoLogger,
  extra: ExtraTracingOptions = {},
): AssembledService {
  const tracing = createTracing({
    onExportError: (reason) => logger.warn({ reason }, 'span export failed'),
    ...extra,
    disabled: config.disableTracing,
    otlpEndpoint: config.otlpEndpoint,
    environment: config.environment,
    serviceVersion: SERVICE_VERSION,
  });
  const metrics = createMetrics();
  const built = createDeps(config, urls, logger, { tracer: tracing.tracer, metrics });
  const app = buildApp({
    deps: built.deps,
    tracer: tracing.tracer,
    routePrefix: config.routePrefix,
    loggerInstance: logger,
    metrics,
    recordMessageText: config.recordMessageText,
  });
  return {
    app,
    deps: built.deps,
    metrics,
    async stop(graceMs) {
      await app.close();
      const pending = await built.deps.handoff.drain(graceMs);
      await built.close();
      return pending;
    },
    flushSpans: () => tracing.shutdown(),
  };
}
