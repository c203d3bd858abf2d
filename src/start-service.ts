/** The process (after src/server.ts checked the Node version): configuration, logger, listen, graceful close. Everything else is wired by compose.ts. */
import { loadConfig } from './config/load-config.ts';
import { ConfigError, InvalidConfigError } from './config/env-parsers.ts';
import { explainBusyPort, StartUpError } from './config/start-up-errors.ts';
import { composeService } from './compose.ts';
import { browserPort } from './http/browser-port.ts';
import { closeOnSignal } from './runtime/graceful-shutdown.ts';
import { releaseStartUpMemory } from './runtime/release-start-up-memory.ts';
import { descriptorBudget, openFilesSoftLimit } from './runtime/descriptor-budget.ts';
import { POOL_CONNECTIONS } from './clients/party-pool.ts';
import { serveMetrics } from './http/metrics-server.ts';
import { createLogger } from './telemetry/logger.ts';
import { terminalDestination } from './telemetry/terminal-lines.ts';

/**
 * A start-up failure a person can fix (bad configuration, a busy port, a missing package) ends the
 * process with one line saying what to change, exit code 1, no stack. Anything else is a defect and
 * keeps its stack.
 */
function exitIfFixable(err: unknown): never {
  let line: string | undefined;
  if (err instanceof InvalidConfigError || err instanceof ConfigError) line = `invalid configuration: ${err.message}`;
  else if (err instanceof StartUpError) line = err.message;
  if (line === undefined) throw err;
  process.stderr.write(`chat-adapter: ${line}\n`);
  process.exit(1);
}

async function start() {
  const configured = loadConfig();
  // A person at a terminal gets short lines; a file, a pipe or a log collector the JSON lines.
  const logger = createLogger(configured.logLevel, process.stdout.isTTY ? terminalDestination() : undefined);
  // docs/operations.md#open-files: client connections and the parties' pools fit under the open-files limit.
  const softLimit = openFilesSoftLimit();
  if (softLimit === undefined) logger.debug({}, 'open-files limit not known here (no /proc/self/limits, or unlimited): MAX_CONNECTIONS is not compared with it');
  const budget = descriptorBudget(softLimit, configured.maxConnections, POOL_CONNECTIONS);
  if (budget.lowered.length > 0) logger.warn({ openFilesLimit: softLimit, lowered: budget.lowered }, 'the open-files limit is too low for MAX_CONNECTIONS and the party pools: lowered to fit; raise the limit (ulimit -n) to serve more');
  const config = { ...configured, maxConnections: budget.maxConnections };
  const service = await composeService(config, logger, { poolConnections: budget.poolConnections });
  const forBrowsers = config.playgroundListener && browserPort(service.app, { host: config.host, playground: config.playground, ...config.playgroundListener }, logger);
  // Plugins loaded and routes compiled first, so the collection also takes their start-up garbage;
  // it runs before the port opens, so no request waits for it.
  await service.app.ready();
  const startUpGcMs = releaseStartUpMemory();
  // Fastify writes a "Server listening at" line per interface; ours, with the one address to open,
  // is the only listening line (its level is lowered for the listen call alone).
  const level = service.app.log.level;
  service.app.log.level = 'warn';
  const url = await service.app
    .listen({ port: config.port, host: config.host })
    .catch((err: unknown) => {
      throw explainBusyPort(err, 'PORT');
    })
    .finally(() => {
      service.app.log.level = level;
    });
  logger.info({ url, environment: config.environment, ...(startUpGcMs !== undefined && { startUpGcMs: Math.round(startUpGcMs) }) }, 'chat adapter listening');
  await forBrowsers?.listen();
  // docs/operations.md#metrics: METRICS_PORT serves /metrics there only.
  const metricsServer = config.metricsPort === undefined ? undefined : await serveMetrics(service.metrics, config.host, config.metricsPort).catch((err: unknown) => {
    throw explainBusyPort(err, 'METRICS_PORT');
  });
  if (metricsServer !== undefined) logger.info({ port: metricsServer.port }, 'metrics served on their own port');
  return { config, logger, service, metricsServer };
}

const { config, logger, service, metricsServer } = await start().catch(exitIfFixable);

// Chats in flight get SHUTDOWN_GRACE_MS, handoffs in flight the same again; 5 s more for the rest.
closeOnSignal(2 * config.shutdownGraceMs + 5_000, logger, async ({ signal, err }) => {
  if (err) logger.error({ error: err.name, reason: err.message }, 'shutting down after an unexpected error');
  else logger.info({ signal }, 'shutting down: chats in flight are answered first');
  await service.close();
  await metricsServer?.close();
});
