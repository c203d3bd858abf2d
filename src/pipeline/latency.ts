import type { Latency } from '../../schemas/chat-response.schema.ts';
import type { StepTiming } from './runner.ts';

function sum(timings: readonly StepTiming[], names: readonly string[]): number {
  let total = 0;
  for (const t of timings) if (names.includes(t.name)) total += t.ms;
  return total;
}

/** On a cache hit the engine step is reported under this name (it did not call the engine). */
export const CACHE_HIT_STEP = 'askEngineCacheHit';

/** The SPEC 2.2 latency members (milliseconds), derived from the step timings. */
export function latencyFrom(timings: readonly StepTiming[], totalMs: number, engineSkipped: boolean): Latency {
  const steps: Record<string, number> = {};
  for (const t of timings) steps[engineSkipped && t.name === 'askEngine' ? CACHE_HIT_STEP : t.name] = t.ms;
  return {
    service_engine_latency: engineSkipped ? 0 : sum(timings, ['askEngine']),
    chat_adapter_latency: totalMs,
    extract_and_update_contact_latency: sum(timings, ['extractContact', 'updateConversation']),
    create_message_latency: sum(timings, ['storeQuestion', 'storeAnswer']),
    steps,
  };
}

/** The same figures as a `Server-Timing` header value. */
export function serverTiming(latency: Latency): string {
  const parts = Object.entries(latency.steps).map(([name, ms]) => `${name};dur=${ms.toFixed(2)}`);
  parts.push(`total;dur=${latency.chat_adapter_latency.toFixed(2)}`);
  return parts.join(', ');
}
