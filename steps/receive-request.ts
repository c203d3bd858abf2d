import type { ChatContext, ContextPatch } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';

/**
 * Rule 1: the request is received. The message is taken with surrounding white space trimmed, and
 * the request gets the id its stored messages are keyed by: the caller's Idempotency-Key when sent
 * (a retried request then stores nothing twice), otherwise a fresh UUID.
 */
export function receiveRequest(ctx: Readonly<ChatContext>, deps: Deps): ContextPatch {
  return {
    message: ctx.request.message.trim(),
    requestId: ctx.idempotencyKey ?? deps.newId(),
  };
}
