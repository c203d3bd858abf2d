import type { Latency } from '../../schemas/chat-response.schema.ts';
import type { StepTiming } from './runner.ts';

function sum(timings: readonly StepTiming[], names: readonly string[]): number {
  let total = 0;
  for (const t of timings) if (names.includes(t.name)) total += t.ms;
  return total;
}

/** Milliseconds as reported everywhere (body, Server-Timing, log line): 3 decimals, i.e. to the microsecond. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** On a cache hit the engine step is reported under this name (it did not call the engine). */
export const CACHE_HIT_STEP = 'askEngineCacheHit';

/** The SPEC 2.2 latency members (milliseconds, rounded by roundMs), derived from the step timings. */
export function latencyFrom(timings: readonly StepTiming[], totalMs: number, engineSkipped: boolean): Latency {
  const steps: Record<string, number> = {};
  for (const t of timings) steps[engineSkipped && t.name === 'askEngine' ? CACHE_HIT_STEP : t.name] = roundMs(t.ms);
  return {
    service_engine_latency: engineSkipped ? 0 : roundMs(sum(timings, ['askEngine'])),
    chat_adapter_latency: roundMs(totalMs),
    extract_and_update_contact_latency: roundMs(sum(timings, ['extractContact', 'updateConversation'])),
    create_message_latency: roundMs(sum(timings, ['storeQuestion', 'storeAnswer'])),
    steps,
  };
}

/** The same figures, written as in the body, as a `Server-Timing` header value. */
export function serverTiming(latency: Latency): string {
  const parts = Object.entries(latency.steps).map(([name, ms]) => `${name};dur=${ms}`);
  parts.push(`total;dur=${latency.chat_adapter_latency}`);
  return parts.join(', ');
}
