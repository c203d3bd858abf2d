import pino, { type Logger, type DestinationStream } from 'pino';

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
 * Without a destination, lines go to stdout asynchronously: a line is not a write system call of
 * its own under load (lines logged while a write is in flight go out together), and what is
 * still buffered is written synchronously when the process exits.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'chat-adapter' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
