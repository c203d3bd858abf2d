import { ConfigError, envChoice, envOptionalString, type Env } from './env-parsers.ts';

/** The standard OpenTelemetry `OTEL_TRACES_SAMPLER` values this service supports. */
export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TracesSamplerName = (typeof TRACES_SAMPLERS)[number];

export interface TracesSamplerConfig {
  /** OTEL_TRACES_SAMPLER; the OpenTelemetry default, `parentbased_always_on`, when unset. */
  readonly name: TracesSamplerName;
  /** OTEL_TRACES_SAMPLER_ARG: the share of traces kept by the `*traceidratio` samplers, 0..1 (default 1). */
  readonly ratio: number;
}

/** Reads OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG as the OpenTelemetry SDK specification defines them. */
export function readTracesSampler(env: Env): TracesSamplerConfig {
  const name = envChoice(env, 'OTEL_TRACES_SAMPLER', TRACES_SAMPLERS, 'parentbased_always_on');
  const arg = envOptionalString(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (arg === undefined || !name.endsWith('traceidratio')) return { name, ratio: 1 };
  const ratio = Number(arg);
  if (!/^\d*\.?\d+$/.test(arg) || ratio > 1) {
    throw new ConfigError('OTEL_TRACES_SAMPLER_ARG', `must be a number from 0 to 1, got "${arg}"`);
  }
  return { name, ratio };
}
