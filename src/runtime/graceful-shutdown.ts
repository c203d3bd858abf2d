/**
 * How the process ends: the first SIGTERM, SIGINT or SIGHUP starts one graceful close; further
 * signals are logged and change nothing. A signal often arrives twice: Ctrl-C or a kill of the
 * process group (systemd's default, `timeout`) reaches Node and also npm, which forwards it again.
 * Ending at once on the second one, as close-with-grace does, cut the chats in flight, so this
 * module replaces it for the service (the local stack keeps it).
 * The close is bounded: past `graceMs` the process exits 1 with a line saying so. An uncaught
 * error starts the same close and exits 1; an error while already closing exits 1 at once.
 */
import type { Logger } from 'pino';

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;

export interface ShutdownReason {
  readonly signal?: string;
  readonly err?: Error;
}

export function closeOnSignal(graceMs: number, logger: Logger, close: (reason: ShutdownReason) => Promise<void>): void {
  let closing = false;
  const begin = (reason: ShutdownReason) => {
    if (closing) {
      if (reason.err !== undefined) {
        logger.error({ error: reason.err.name, reason: reason.err.message }, 'unexpected error while shutting down: exiting now');
        process.exit(1);
      }
      logger.info({ signal: reason.signal }, 'shutdown already under way; signal ignored');
      return;
    }
    closing = true;
    const timer = setTimeout(() => {
      logger.error({ grace_ms: graceMs }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, graceMs);
    close(reason).then(
      () => {
        clearTimeout(timer);
        process.exit(reason.err === undefined ? 0 : 1);
      },
      (err: unknown) => {
        logger.error({ reason: err instanceof Error ? err.message : String(err) }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of SIGNALS) process.on(signal, () => begin({ signal }));
  const onError = (err: unknown) => begin({ err: err instanceof Error ? err : new Error(String(err)) });
  process.on('uncaughtException', onError);
  process.on('unhandledRejection', onError);
}
