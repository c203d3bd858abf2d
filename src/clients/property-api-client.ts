import { TypeCompiler } from '@sinclair/typebox/compiler';
import {
  FloorPlansReplySchema,
  NeighborhoodReplySchema,
  TimeSlotsReplySchema,
  UnitsReplySchema,
  type FloorPlan,
  type TimeSlot,
  type Unit,
} from '../../schemas/property-api.schema.ts';
import { callJson, type HttpParty } from './http-json.ts';

const unitsReply = TypeCompiler.Compile(UnitsReplySchema);
const floorPlansReply = TypeCompiler.Compile(FloorPlansReplySchema);
const timeSlotsReply = TypeCompiler.Compile(TimeSlotsReplySchema);
const neighborhoodReply = TypeCompiler.Compile(NeighborhoodReplySchema);

/** docs/contracts.md#property-api: the property management API. */
export function createPropertyApiClient(target: HttpParty) {
  const q = (propertyId: string) => `?propertyId=${encodeURIComponent(propertyId)}`;

  return {
    async units(propertyId: string, deadlineAt?: number): Promise<Unit[]> {
      const path = `/api/v1/units${q(propertyId)}`;
      return (await callJson(target, { method: 'GET', path, reply: unitsReply, deadlineAt })).units;
    },
    async floorPlans(propertyId: string, deadlineAt?: number): Promise<FloorPlan[]> {
      const path = `/api/v1/floor_plans/${q(propertyId)}`;
      return (await callJson(target, { method: 'GET', path, reply: floorPlansReply, deadlineAt })).floor_plans;
    },
    async tourSlots(propertyId: string, deadlineAt?: number): Promise<TimeSlot[]> {
      const path = `/api/v1/apartments/all_type_available_time_slots${q(propertyId)}`;
      return (await callJson(target, { method: 'GET', path, reply: timeSlotsReply, deadlineAt })).time_slots;
    },
    async neighborhoodKeywords(propertyId: string, query: string, deadlineAt?: number): Promise<string[]> {
      const body = { propertyId, query };
      const path = '/api/v1/service/google_query';
      return (await callJson(target, { method: 'POST', path, body, reply: neighborhoodReply, deadlineAt })).keywords;
    },
  };
}
