import type { ChatRequest } from '../../schemas/chat-request.schema.ts';
import type { ChatContext, ContextPatch, FormattedReply } from '../../src/pipeline/context.ts';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';

export const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

/** A validated request as the route hands it to the pipeline (schema defaults filled in). */
export function validRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  const base = chatRequest({ session_id: 'd41d8cd98f00b204e9800998ecf8427e' }) as unknown as ChatRequest;
  return { ...base, spanish_support_enabled: false, spanish_toggle: false, is_first_entry: false, ...overrides };
}

/** A context as it stands before the first step. */
export function freshContext(request: ChatRequest = validRequest(), idempotencyKey?: string): ChatContext {
  return { request, traceId: TRACE_ID, idempotencyKey, deadlineAt: Number.POSITIVE_INFINITY, textOut: undefined, stopSignal: undefined };
}

export function deliveredReply(overrides: Partial<FormattedReply> = {}): FormattedReply {
  return { response: 'Our office is open Monday to Friday, 9am to 6pm.', follow_up: 'Anything else?', language: 'en', not_available: [], ...overrides };
}

/**
 * A context as the earlier steps leave it once the reply is formatted: the trimmed message, a
 * request id, the language, the trimmed history, the engine reply and the delivered reply.
 */
export function answeredContext(request: ChatRequest = validRequest(), patch: ContextPatch = {}): ChatContext {
  return {
    ...freshContext(request),
    requestId: 'req-7f3a',
    message: request.message.trim(),
    language: request.spanish_toggle ? 'es' : 'en',
    history: request.history.slice(-4),
    engineReply: engineReply(),
    replySource: 'engine',
    reply: deliveredReply(),
    ...patch,
  };
}

/** Merges a step's patch the way the runner does. */
export function applyPatch(ctx: ChatContext, patch: ContextPatch | void): ChatContext {
  if (patch) Object.assign(ctx, patch);
  return ctx;
}
