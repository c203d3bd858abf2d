/**
 * Whether a command failed because Redis did not answer within the command timeout (a stall: a
 * pause, a slow fsync, a long script), as ioredis words it, rather than being refused at once (no
 * connection) or answered with an error. A module of its own: the session turns read it without
 * loading ioredis where no Redis is configured.
 */
export function isCommandTimeout(err: Error): boolean {
  return err.message === 'Command timed out';
}

