import pino, { type Logger, type DestinationStream } from 'pino';
import { stdoutDestination, type StdoutOptions } from './log-destination.ts';

/**
 * Log lines carry ids, statuses and timings only. Redaction is a second line of defence for the
 * places a secret or personal detail could slip in; paths are fixed here, never taken from input.
 */
const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers["x-graphql-api-key"]',
  'graphql_api_key',
  'body',
  'message',
  'contact',
  'email',
  'phone',
  'name',
];

/**
 * pino's `isoTime`, formatted once per millisecond: under load several lines share a millisecond,
 * and `toISOString` is most of the cost of a line's timestamp.
 */
function isoTimeOncePerMs(): () => string {
  let lastMs = -1;
  let last = '';
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      last = `,"time":"${new Date(now).toISOString()}"`;
    }
    return last;
  };
}

/**
 * Without a destination, lines go to stdout (log-destination.ts: at once to a file, buffered within
 * a ceiling to a pipe); lines dropped while a pipe was not read are reported in one warning once
 * it is. `stdout` adjusts that destination (tests: a smaller backlog).
 */
export function createLogger(level: string, destination?: DestinationStream, stdout: Omit<StdoutOptions, 'onDropsEnded'> = {}): Logger {
  const logger: Logger = pino(
    {
      level,
      base: { service: 'chat-adapter' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: isoTimeOncePerMs(),
    },
    destination ?? stdoutDestination({ ...stdout, onDropsEnded: (dropped) => logger.warn({ dropped }, 'log lines dropped: stdout was not being read') }),
  );
  return logger;
}
