/** Parsers for environment variables. Each throws ConfigError naming the variable on a bad value. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
}

/** Every bad variable at once (one ConfigError each), so that one restart can fix them all. */
export class InvalidConfigError extends Error {
  readonly problems: readonly ConfigError[];
  constructor(problems: readonly ConfigError[]) {
    super(problems.map((problem) => problem.message).join('; '));
    this.name = 'InvalidConfigError';
    this.problems = problems;
  }
}

/**
 * Collects ConfigErrors instead of stopping at the first: `check(read)` runs one read and, when the
 * value is bad, notes the problem and gives undefined (never used: `done()` then throws).
 */
export function configProblems() {
  const problems: ConfigError[] = [];
  return {
    check<T>(read: () => T): T {
      try {
        return read();
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        problems.push(err);
        return undefined as T;
      }
    },
    /** Notes a problem found outside a parser (e.g. a variable required in this environment). */
    note(problem: ConfigError): undefined {
      problems.push(problem);
      return undefined;
    },
    /** Throws InvalidConfigError listing every problem noted, if any. */
    done(): void {
      if (problems.length > 0) throw new InvalidConfigError(problems);
    },
  };
}

export type Env = Readonly<Record<string, string | undefined>>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

export function envString(env: Env, name: string, fallback: string): string {
  return raw(env, name) ?? fallback;
}

export function envOptionalString(env: Env, name: string): string | undefined {
  return raw(env, name);
}

export function envBoolean(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ConfigError(name, `must be "true" or "false", got "${value}"`);
}

export function envInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

export function envChoice<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const value = raw(env, name) ?? fallback;
  if (!(choices as readonly string[]).includes(value)) {
    throw new ConfigError(name, `must be one of ${choices.join(', ')}, got "${value}"`);
  }
  return value as T;
}

/** An http(s) URL; the value is never echoed back because it may carry credentials. */
export function checkUrl(name: string, value: string, protocols: readonly string[] = ['http:', 'https:']): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(name, 'is not a valid URL');
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}`);
  }
  return value.replace(/\/+$/, '');
}
