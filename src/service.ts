import type { Logger as PinoLogger } from 'pino';
import { assembleService, type AssembledService, type ExtraTracingOptions } from './assemble-service.ts';
import { PARTIES, type Config, type Party } from './config/config.schema.ts';

export interface RunningService extends Pick<AssembledService, 'app' | 'deps' | 'metrics'> {
  /** Addresses of the parties started by the embedded local stack (empty outside `local`). */
  readonly localUrls: Readonly<Partial<Record<Party, string>>>;
  /** The listening address, e.g. http://127.0.0.1:6000. */
  readonly url: string;
  /** Stops accepting, finishes requests in flight, drains handoffs (bounded), closes everything. */
  close(): Promise<void>;
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
export async function startService(config: Config, logger: PinoLogger, tracing: ExtraTracingOptions = {}): Promise<RunningService> {
  const parties = await resolvePartyUrls(config, logger);
  const service = assembleService(config, parties.urls, logger, tracing);
  const url = await service.app.listen({ port: config.port, host: config.host });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const pending = await service.stop(config.shutdownGraceMs);
      logger.info({ pending_handoffs: pending }, 'service stopped');
      // The local handoff receiver stays up until the drain is over.
      await parties.close();
      await service.flushSpans();
    })());
  return { app: service.app, deps: service.deps, metrics: service.metrics, localUrls: parties.local, url, close };
}
