import type { ChatContext, ContextPatch } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/ports.ts';
import { requestIdFor } from '../src/pipeline/request-id.ts';

/**
 * Processing rule 1: the request is received. The message is taken with surrounding white space trimmed, and
 * the request gets the id its stored messages are keyed by (docs/api.md#idempotency): with an Idempotency-Key,
 * an id derived from the organisation and the key (a retry stores nothing twice; two organisations
 * never share one), otherwise a fresh UUID. Never the trace id: two chats may share a trace.
 */
export function receiveRequest(ctx: Readonly<ChatContext>, deps: Deps): ContextPatch {
  return {
    message: ctx.request.message.trim(),
    requestId: ctx.idempotencyKey === undefined ? deps.newId() : requestIdFor(ctx.request.orgId, ctx.idempotencyKey),
  };
}
