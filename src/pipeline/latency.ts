import type { Latency, LatencySteps } from '../../schemas/chat-response.schema.ts';
import { CACHE_HIT_STEP, ENGINE_STEP, LATENCY_MEMBER_OF_STEP, type LatencyMember } from '../../schemas/chat-steps.ts';
import type { StepTiming } from './runner.ts';

/** Milliseconds as reported everywhere (body, Server-Timing, log line): 3 decimals, i.e. to the microsecond. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** The latency members of docs/api.md#chat-response (milliseconds, rounded by roundMs), derived from the step timings in one pass. */
export function latencyFrom(timings: readonly StepTiming[], totalMs: number, engineSkipped: boolean): Latency {
  // Keyed by the runner's step names, which are the declared names of LATENCY_STEP_NAMES.
  const steps: Record<string, number> = {};
  const sums: Record<LatencyMember, number> = { service_engine_latency: 0, extract_and_update_contact_latency: 0, create_message_latency: 0 };
  for (const t of timings) {
    const member = LATENCY_MEMBER_OF_STEP.get(t.name);
    if (member !== undefined) sums[member] += t.ms;
    steps[engineSkipped && t.name === ENGINE_STEP ? CACHE_HIT_STEP : t.name] = roundMs(t.ms);
  }
  return {
    service_engine_latency: engineSkipped ? 0 : roundMs(sums.service_engine_latency),
    chat_adapter_latency: roundMs(totalMs),
    extract_and_update_contact_latency: roundMs(sums.extract_and_update_contact_latency),
    create_message_latency: roundMs(sums.create_message_latency),
    steps: steps as LatencySteps,
  };
}

/** The same figures, written as in the body, as a `Server-Timing` header value. */
export function serverTiming(latency: Latency): string {
  let value = '';
  const steps: Readonly<Record<string, number | undefined>> = latency.steps;
  for (const name in steps) value += `${name};dur=${steps[name]}, `;
  return `${value}total;dur=${latency.chat_adapter_latency}`;
}
