/** The process: configuration, logger, listen, graceful close. Everything else is wired by compose.ts. */
import closeWithGrace from 'close-with-grace';
import { loadConfig } from './config/load-config.ts';
import { ConfigError } from './config/env-parsers.ts';
import { composeService } from './compose.ts';
import { createLogger } from './telemetry/logger.ts';

function configOrExit() {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      // One clear line naming the variable; no stack.
      process.stderr.write(`chat-adapter: invalid configuration: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

const config = configOrExit();
const logger = createLogger(config.logLevel);
const service = await composeService(config, logger);
const url = await service.app.listen({ port: config.port, host: config.host });
logger.info({ url, environment: config.environment }, 'chat adapter listening');

closeWithGrace({ delay: config.shutdownGraceMs + 5_000, logger: { error: (m: unknown) => logger.error({ reason: String(m) }, 'shutdown') } }, async ({ signal, err }) => {
  if (err) logger.error({ error: err.name, reason: err.message }, 'shutting down after an unexpected error');
  else logger.info({ signal }, 'shutting down');
  await service.close();
});
