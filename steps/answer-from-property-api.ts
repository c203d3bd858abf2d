import type { AdapterAction } from '../schemas/engine.schema.ts';
import {
  describeFloorPlans,
  describeNeighborhood,
  describeTourSlots,
  describeUnits,
  notAvailableNow,
  toursByOffice,
} from '../src/language/property-answers.ts';
import { need, type ChatContext, type ContextPatch } from '../src/pipeline/context.ts';
import type { Deps } from '../src/pipeline/deps.ts';

async function answerFor(action: AdapterAction, ctx: Readonly<ChatContext>, deps: Deps): Promise<string> {
  const lang = need(ctx, 'language');
  const propertyId = ctx.request.propertyId;
  const dates = { timeZone: deps.settings.propertyTimeZone, now: new Date(deps.clock.now()) };
  switch (action) {
    case 'units':
      return describeUnits(await deps.propertyApi.units(propertyId), lang, dates);
    case 'floor_plans':
      return describeFloorPlans(await deps.propertyApi.floorPlans(propertyId), lang);
    case 'tour_slots':
      // Slots are only offered where the property lets visitors book tours themselves.
      if (!ctx.request.tourScheduleEnabled) return toursByOffice(lang);
      return describeTourSlots(await deps.propertyApi.tourSlots(propertyId), lang, dates);
    case 'neighborhood':
      return describeNeighborhood(await deps.propertyApi.neighborhoodKeywords(propertyId, need(ctx, 'message')), lang);
  }
}

/**
 * CONTRACTS 3.1/3.5: an `adapter` reply with an `adapter_action` is answered by the service itself
 * from the property management API, written directly in the reply language. A failing property API
 * never fails the chat: the reply says the information is not available right now and the topic
 * is added to `not_available`.
 */
export async function answerFromPropertyApi(ctx: Readonly<ChatContext>, deps: Deps): Promise<ContextPatch> {
  const reply = need(ctx, 'engineReply');
  const action = reply.adapter_action;
  if (reply.retrieval_type !== 'adapter' || action === undefined) return {};
  const language = need(ctx, 'language');
  try {
    return { engineReply: { ...reply, response: await answerFor(action, ctx, deps), language } };
  } catch (err) {
    deps.logger.warn(
      { trace_id: ctx.traceId, party: 'propertyApi', action, reason: (err as Error).message },
      'property API failed; replying that the information is not available',
    );
    const notAvailable = [...(reply.not_available ?? []), action];
    return { engineReply: { ...reply, response: notAvailableNow(action, language), language, not_available: notAvailable } };
  }
}
