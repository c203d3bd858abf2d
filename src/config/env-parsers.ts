/** Parsers for environment variables. Each throws ConfigError naming the variable on a bad value. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.name = 'ConfigError';
    this.variable = variable;
  }
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
