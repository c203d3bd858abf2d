/**
 * A port another process holds, told as a person can act on it: the port and the variable that
 * moves it (PORT for the service, LOCAL_STACK_BASE_PORT for the embedded parties).
 */
export class PortInUseError extends Error {
  readonly port: number;
  readonly variable: string;
  constructor(port: number, variable: string, hint: string, cause: unknown) {
    super(`port ${port} is already in use; set ${variable} to ${hint}`, { cause });
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
