/**
 * Start-up failures a person can fix. Their message says what to change; src/server.ts prints it
 * as one line and exits 1, without a stack.
 */
export class StartUpError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'StartUpError';
  }
}

/** A port another process holds, with the variable that moves it (PORT, LOCAL_STACK_BASE_PORT). */
export class PortInUseError extends StartUpError {
  readonly port: number;
  readonly variable: string;
  constructor(port: number, variable: string, hint: string, cause: unknown) {
    super(`port ${port} is already in use; set ${variable} to ${hint}`, cause);
    this.name = 'PortInUseError';
    this.port = port;
    this.variable = variable;
  }
}

/** `listen()`'s EADDRINUSE as a PortInUseError naming `variable`; any other error unchanged. */
export function explainBusyPort(err: unknown, variable: string, hint = 'another port'): unknown {
  const e = err as { code?: unknown; port?: unknown } | null;
  if (e?.code !== 'EADDRINUSE' || typeof e.port !== 'number') return err;
  return new PortInUseError(e.port, variable, hint, err);
}

/**
 * The embedded local stack's packages (natural, mercurius) are development dependencies: an image
 * built with `npm ci --omit=dev` runs only with every party's address configured.
 */
export function explainMissingLocalStack(err: unknown): unknown {
  const e = err as { code?: unknown; message?: unknown } | null;
  const missing = e?.code === 'ERR_MODULE_NOT_FOUND' && typeof e.message === 'string' ? /Cannot find package '([^']+)'/.exec(e.message)?.[1] : undefined;
  if (missing === undefined) return err;
  return new StartUpError(
    `the embedded local stack needs the development dependencies (${missing} is not installed: npm ci without --omit=dev), ` +
      'or set ENGINE_URL, TRANSLATE_URL, HANDOFF_URL, GRAPHQL_URL and PROPERTY_API_URL',
    err,
  );
}
