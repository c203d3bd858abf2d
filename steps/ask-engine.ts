import type { EngineRequest } from '../schemas/engine.schema.ts';
import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';
import type { Deps, EngineTextListener } from '../src/pipeline/ports.ts';
import { SentenceRelease } from '../src/reply/sentence-release.ts';
import type { RetrievalType } from '../schemas/chat-response.schema.ts';

/**
 * The engine request of docs/contracts.md#engine, built member by member so that nothing else the caller sent
 * (and never `graphql_api_key`) leaves the service.
 */
export function engineRequestFor(ctx: Readonly<ChatContext>): EngineRequest {
  const r = ctx.request;
  return {
    propertyId: r.propertyId,
    message: need(ctx, 'message'),
    orgId: r.orgId,
    session_id: r.session_id,
    conversation_id: r.conversation_id,
    tourScheduleEnabled: r.tourScheduleEnabled,
    history: need(ctx, 'history'),
    ...(r.entry_id !== undefined && { entry_id: r.entry_id }),
    ...(r.booking_id !== undefined && { booking_id: r.booking_id }),
    ...(r.reschedule_information !== undefined && { reschedule_information: r.reschedule_information }),
    ...(r.schedule_information !== undefined && { schedule_information: r.schedule_information }),
    spanish_support_enabled: r.spanish_support_enabled,
    spanish_toggle: r.spanish_toggle,
    is_first_entry: r.is_first_entry,
    ...(r.org_name !== undefined && { org_name: r.org_name }),
    language: need(ctx, 'language'),
  };
}

/** The concise styles whose engine text is the reply (an `adapter` reply may be replaced by the service's own). */
const RELEASED_WHILE_WRITTEN: ReadonlySet<RetrievalType> = new Set(['rag', 'fixed', 'spf']);

/**
 * For a caller that streams (docs/api.md#streamed-replies): the engine's text goes to it sentence by sentence while
 * the engine writes, when the engine named a concise style first and the reply needs no
 * translation; otherwise nothing is released here and the route writes the reply once it is known.
 */
function releaseWhileWritten(ctx: Readonly<ChatContext>): EngineTextListener | undefined {
  const out = ctx.textOut;
  if (out === undefined) return undefined;
  const target = need(ctx, 'language');
  const release = new SentenceRelease((text) => out.release(text));
  let decided: boolean | undefined;
  return (delta, announced) => {
    decided ??= announced !== undefined && RELEASED_WHILE_WRITTEN.has(announced.retrieval_type) && (announced.language === 'es' ? 'es' : 'en') === target;
    if (decided) release.push(delta);
  };
}

/** Rule 4: the engine is asked for intent and reply (unless an earlier step already has the reply). */
export async function askEngine(ctx: Readonly<ChatContext>, deps: Deps): Promise<ContextPatch> {
  if (ctx.engineReply !== undefined) return {};
  return { engineReply: await deps.engine.query(engineRequestFor(ctx), ctx.deadlineAt, releaseWhileWritten(ctx), ctx.stopSignal), replySource: 'engine' };
}
