/**
 * What may be said about an error in a log line or on a span. Only messages this service builds
 * from fixed text (DownstreamError, RequestValidationError, Fastify's FST_* errors) are repeated;
 * any other message may quote input (a JSON parse error quotes the body, a ClientError holds the
 * GraphQL variables), so only its name and code are kept.
 */
export interface ErrorDescription {
  readonly error: string;
  readonly code?: string;
  /** Present only when the message is known to hold no input. */
  readonly reason?: string;
}

const SAFE_NAMES: ReadonlySet<string> = new Set(['DownstreamError', 'RequestValidationError']);

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  step?: unknown;
  cause?: unknown;
}

export function describeError(err: unknown): ErrorDescription {
  if (typeof err !== 'object' || err === null) return { error: typeof err };
  const e = err as ErrorLike;
  const name = typeof e.name === 'string' ? e.name : 'Error';
  const code = typeof e.code === 'string' ? e.code : undefined;
  const withCode = code === undefined ? { error: name } : { error: name, code };
  if (name === 'StepError' && typeof e.step === 'string') {
    const inner = describeError(e.cause);
    return { ...withCode, reason: `step ${e.step} failed: ${inner.reason ?? inner.error}` };
  }
  const safe = SAFE_NAMES.has(name) || (code?.startsWith('FST_') ?? false);
  return safe && typeof e.message === 'string' ? { ...withCode, reason: e.message } : withCode;
}

/** The stack's frames without its first line (which repeats the message). */
export function stackFrames(err: unknown): string | undefined {
  const stack = (err as { stack?: unknown } | null)?.stack;
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((line) => line.startsWith('    at '));
  return frames.length === 0 ? undefined : frames.join('\n');
}
