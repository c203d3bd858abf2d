import type { Latency, LatencySteps } from '../../schemas/chat-response.schema.ts';
import type { StepTiming } from './runner.ts';

/** Milliseconds as reported everywhere (body, Server-Timing, log line): 3 decimals, i.e. to the microsecond. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** On a cache hit the engine step is reported under this name (it did not call the engine). */
export const CACHE_HIT_STEP = 'askEngineCacheHit';

/** The latency members of docs/api.md#chat-response (milliseconds, rounded by roundMs), derived from the step timings in one pass. */
export function latencyFrom(timings: readonly StepTiming[], totalMs: number, engineSkipped: boolean): Latency {
  // Keyed by the runner's step names, which a test keeps equal to the schema's LATENCY_STEP_NAMES.
  const steps: Record<string, number> = {};
  let engine = 0;
  let contact = 0;
  let messages = 0;
  for (const t of timings) {
    switch (t.name) {
      case 'askEngine':
        engine += t.ms;
        break;
      case 'extractContact':
      case 'updateConversation':
        contact += t.ms;
        break;
      case 'storeQuestion':
      case 'storeAnswer':
        messages += t.ms;
        break;
    }
    steps[engineSkipped && t.name === 'askEngine' ? CACHE_HIT_STEP : t.name] = roundMs(t.ms);
  }
  return {
    service_engine_latency: engineSkipped ? 0 : roundMs(engine),
    chat_adapter_latency: roundMs(totalMs),
    extract_and_update_contact_latency: roundMs(contact),
    create_message_latency: roundMs(messages),
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
