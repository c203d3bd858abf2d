import type { Latency } from '../schemas/chat-response.schema.ts';
import { answerFromPropertyApi } from '../steps/answer-from-property-api.ts';
import { askEngine } from '../steps/ask-engine.ts';
import { assembleResponse } from '../steps/assemble-response.ts';
import { chooseLanguage } from '../steps/choose-language.ts';
import { decideHandoff } from '../steps/decide-handoff.ts';
import { extractContact } from '../steps/extract-contact.ts';
import { formatReply } from '../steps/format-reply.ts';
import { loadSession } from '../steps/load-session.ts';
import { receiveRequest } from '../steps/receive-request.ts';
import { rememberTurn } from '../steps/remember-turn.ts';
import { reuseCachedReply } from '../steps/reuse-cached-reply.ts';
import { startHandoff } from '../steps/start-handoff.ts';
import { storeAnswer } from '../steps/store-answer.ts';
import { storeQuestion } from '../steps/store-question.ts';
import { translateReply } from '../steps/translate-reply.ts';
import { trimHistory } from '../steps/trim-history.ts';
import { updateConversation } from '../steps/update-conversation.ts';
import { validateRequest } from '../steps/validate-request.ts';
import { createPipeline, type StepTiming } from './pipeline/runner.ts';

/** SPEC 4.2, in order. Each step's function name is its name in latency figures, logs and spans. */
export const chatPipeline = createPipeline([
  receiveRequest,
  validateRequest,
  loadSession,
  chooseLanguage,
  trimHistory,
  reuseCachedReply,
  askEngine,
  answerFromPropertyApi,
  formatReply,
  translateReply,
  extractContact,
  decideHandoff,
  updateConversation,
  storeQuestion,
  startHandoff,
  storeAnswer,
  rememberTurn,
  assembleResponse,
]);

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
