import type { FastifyInstance } from 'fastify';
import type { Logger as PinoLogger } from 'pino';
import { buildApp } from './app.ts';
import { PARTIES, type Config, type Party } from './config/config.schema.ts';
import { createDeps } from './deps.ts';
import type { Deps } from './pipeline/deps.ts';
import { createMetrics, type Metrics } from './telemetry/metrics.ts';
import { createTracing, type TracingOptions } from './telemetry/tracing.ts';

const SERVICE_VERSION = '1.5.0';

export interface RunningService {
  readonly app: FastifyInstance;
  readonly deps: Deps;
  readonly metrics: Metrics;
  /** Addresses of the parties started by the embedded local stack (empty outside `local`). */
  readonly localUrls: Readonly<Partial<Record<Party, string>>>;
  /** The listening address, e.g. http://127.0.0.1:6000. */
  readonly url: string;
  /** Stops accepting, finishes requests in flight, drains handoffs (bounded), closes pools. */
  close(): Promise<void>;
}

export interface ServiceOptions {
  readonly spanProcessors?: TracingOptions['spanProcessors'];
}

/** Parties without a configured address are started locally (ENVIRONMENT=local only). */
async function resolvePartyUrls(config: Config, logger: PinoLogger) {
  const missing = PARTIES.filter((party) => config.urls[party] === undefined);
  if (missing.length === 0) return { urls: config.urls as Record<Party, string>, local: {}, close: async () => {} };
  // The embedded reference stack is reached from start-up only, never from steps or clients.
  const { startLocalStack } = await import('./local/index.ts');
  const stack = await startLocalStack({
    dataDir: config.localDataDir,
    parties: new Set(missing),
    basePort: config.localStackBasePort,
    logger,
  });
  logger.info({ parties: missing, dataDir: config.localDataDir }, 'embedded local stack started');
  return { urls: { ...stack.urls, ...config.urls } as Record<Party, string>, local: stack.urls, close: () => stack.close() };
}

/** Starts everything the service needs and listens; used by src/server.ts and the end-to-end tests. */
export async function startService(config: Config, logger: PinoLogger, options: ServiceOptions = {}): Promise<RunningService> {
  const parties = await resolvePartyUrls(config, logger);
  const tracing = createTracing({
    disabled: config.disableTracing,
    otlpEndpoint: config.otlpEndpoint,
    spanProcessors: options.spanProcessors ?? [],
    environment: config.environment,
    serviceVersion: SERVICE_VERSION,
    onExportError: (reason) => logger.warn({ reason }, 'span export failed'),
  });
  const metrics = createMetrics();
  const built = createDeps(config, parties.urls, logger, { tracer: tracing.tracer, metrics });
  const app = buildApp({
    deps: built.deps,
    tracer: tracing.tracer,
    routePrefix: config.routePrefix,
    loggerInstance: logger,
    metrics,
    recordMessageText: config.recordMessageText,
  });
  const url = await app.listen({ port: config.port, host: config.host });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await app.close();
      const pending = await built.deps.handoff.drain(config.shutdownGraceMs);
      logger.info({ pending_handoffs: pending }, 'service stopped');
      await built.close();
      await parties.close();
      // Last, so that spans of handoffs delivered during the drain are flushed too.
      await tracing.shutdown();
    })());
  return { app, deps: built.deps, metrics, localUrls: parties.local, url, close };
}
