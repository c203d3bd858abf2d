import { randomUUID } from 'node:crypto';
import { ConfigError, envOptionalString, type Env } from './env-parsers.ts';

/** The OpenTelemetry resource's settings: which service and which replica the spans come from. */
export interface ResourceConfig {
  /** OTEL_SERVICE_NAME; it wins over a `service.name` in OTEL_RESOURCE_ATTRIBUTES. Default `chat-adapter`. */
  readonly serviceName: string | undefined;
  /** OTEL_RESOURCE_ATTRIBUTES, decoded: they win over the service's own (service.instance.id, deployment.environment.name). */
  readonly attributes: ReadonlyMap<string, string>;
  /** `service.instance.id` unless OTEL_RESOURCE_ATTRIBUTES names one: a UUID per process, so replicas are told apart. */
  readonly instanceId: string;
}

const MAX_CHARS = 4096;

/**
 * OTEL_RESOURCE_ATTRIBUTES as the OpenTelemetry specification defines it: `key=value` pairs
 * separated by commas, keys and values percent-encoded. A malformed list stops the start with one
 * line naming the variable (the specification would drop it silently; a typo is better caught).
 */
export function parseResourceAttributes(raw: string): Map<string, string> {
  const attributes = new Map<string, string>();
  if (raw.length > MAX_CHARS) throw new ConfigError('OTEL_RESOURCE_ATTRIBUTES', `must be at most ${MAX_CHARS} characters`);
  for (const pair of raw.split(',')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ConfigError('OTEL_RESOURCE_ATTRIBUTES', 'must be a comma-separated list of key=value');
    try {
      attributes.set(decodeURIComponent(pair.slice(0, eq).trim()), decodeURIComponent(pair.slice(eq + 1).trim()));
    } catch {
      throw new ConfigError('OTEL_RESOURCE_ATTRIBUTES', 'has a key or value that is not valid percent-encoding');
    }
  }
  return attributes;
}

export function readResourceConfig(env: Env): ResourceConfig {
  const serviceName = envOptionalString(env, 'OTEL_SERVICE_NAME');
  const raw = envOptionalString(env, 'OTEL_RESOURCE_ATTRIBUTES');
  return { serviceName, attributes: raw === undefined ? new Map() : parseResourceAttributes(raw), instanceId: randomUUID() };
}
