import type { AdapterAction, EngineReply } from '../schemas/engine.schema.ts';
import type { TimeSlot } from '../schemas/property-api.schema.ts';
import {
  describeFloorPlans,
  describeNeighborhood,
  describeTourSlots,
  describeUnits,
  notAvailableNow,
  toursByOffice,
} from '../src/reply/property-answers.ts';
import { DownstreamError } from '../src/errors.ts';
import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';
import { degradableDeadline } from '../src/pipeline/degradable-deadline.ts';
import type { Deps } from '../src/pipeline/ports.ts';

const UTC_OFFSET = /([+-]\d{2}:\d{2})$/;

/**
 * Tour times are told in the property's local time. Slots written with a UTC offset
 * ("2026-03-10T10:00:00-05:00") carry it; slots in UTC ("...Z") fall back to PROPERTY_TIME_ZONE.
 */
function slotTimeZone(slots: readonly TimeSlot[], fallback: string): string {
  return UTC_OFFSET.exec(slots[0]?.start ?? '')?.[1] ?? fallback;
}

/**
 * The engine's `keyword_cache.bedrooms` (0 = studio) narrows units and floor plans to what was asked
 * for; when nothing matches, the whole list is shown (the engine names the missing size in
 * `not_available`).
 */
function forBedrooms<T extends { bedrooms: number }>(items: readonly T[], ctx: Readonly<ChatContext>): T[] {
  const wanted = need(ctx, 'engineReply').keyword_cache?.['bedrooms'];
  if (typeof wanted !== 'number') return [...items];
  const matching = items.filter((item) => item.bedrooms === wanted);
  return matching.length > 0 ? matching : [...items];
}

async function answerFor(action: AdapterAction, ctx: Readonly<ChatContext>, deps: Deps): Promise<string> {
  const lang = need(ctx, 'language');
  const propertyId = ctx.request.propertyId;
  const deadlineAt = degradableDeadline(ctx.deadlineAt);
  const dates = { timeZone: deps.settings.propertyTimeZone, now: new Date(deps.clock.now()) };
  switch (action) {
    case 'units':
      return describeUnits(forBedrooms(await deps.propertyApi.units(propertyId, deadlineAt), ctx), lang, dates);
    case 'floor_plans':
      return describeFloorPlans(forBedrooms(await deps.propertyApi.floorPlans(propertyId, deadlineAt), ctx), lang);
    case 'tour_slots':
      // Slots are only offered where the property lets visitors book tours themselves.
      if (!ctx.request.tourScheduleEnabled) return toursByOffice(lang);
      const slots = await deps.propertyApi.tourSlots(propertyId, deadlineAt);
      return describeTourSlots(slots, lang, { ...dates, timeZone: slotTimeZone(slots, dates.timeZone) });
    case 'neighborhood':
      return describeNeighborhood(await deps.propertyApi.neighborhoodKeywords(propertyId, need(ctx, 'message'), deadlineAt), lang);
  }
}

/**
 * docs/contracts.md#engine, docs/contracts.md#property-api: an `adapter` reply with an `adapter_action` is answered by the service itself
 * from the property management API, written directly in the reply language. A failing property API
 * never fails the chat: the reply says the information is not available right now (or, when the
 * API answers 404, that the property is not known there) and the topic is added to `not_available`. Only the party's failure (a DownstreamError) does that; a request
 * this service could not build (OutboundRequestError) or another defect of its own is a 500.
 */
export function answerFromPropertyApi(ctx: Readonly<ChatContext>, deps: Deps): ContextPatch | Promise<ContextPatch> {
  const reply = need(ctx, 'engineReply');
  const action = reply.adapter_action;
  // Most replies are not the service's to write: answered at once, without a promise.
  if (reply.retrieval_type !== 'adapter' || action === undefined) return {};
  return answerWithPropertyData(ctx, deps, reply, action);
}

async function answerWithPropertyData(ctx: Readonly<ChatContext>, deps: Deps, reply: EngineReply, action: AdapterAction): Promise<ContextPatch> {
  const language = need(ctx, 'language');
  try {
    return { engineReply: { ...reply, response: await answerFor(action, ctx, deps), language } };
  } catch (err) {
    if (!(err instanceof DownstreamError)) throw err;
    deps.logger.warn(
      { trace_id: ctx.traceId, party: 'propertyApi', action, reason: (err as Error).message },
      'property API failed; replying that the information is not available',
    );
    const notAvailable = [...(reply.not_available ?? []), action];
    const response = notAvailableNow(action, language, err.status === 404);
    return { engineReply: { ...reply, response, language, not_available: notAvailable } };
  }
}
