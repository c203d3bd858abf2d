import QuickLRU from 'quick-lru';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import {
  ApiTokenReplySchema,
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
const apiTokenReply = TypeCompiler.Compile(ApiTokenReplySchema);

export interface PropertyApiOptions {
  /** How long a fetched API token is reused for its property. */
  readonly tokenTtlMs?: number;
  readonly maxCachedTokens?: number;
}

/** docs/contracts.md#property-api: the property management API. */
export function createPropertyApiClient(target: HttpParty, options: PropertyApiOptions = {}) {
  // Per-property token cache; an in-flight fetch is shared so a burst asks only once.
  const tokens = new QuickLRU<string, Promise<string>>({
    maxSize: options.maxCachedTokens ?? 1000,
    maxAge: options.tokenTtlMs ?? 15 * 60_000,
  });
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
    /** A fetch shared by a burst is bounded by the deadline of the chat that started it. */
    apiToken(propertyId: string, deadlineAt?: number): Promise<string> {
      const cached = tokens.get(propertyId);
      if (cached) return cached;
      const path = `/api/v1/properties/api_token${q(propertyId)}`;
      const pending = callJson(target, { method: 'GET', path, reply: apiTokenReply, deadlineAt }).then((r) => r.token);
      tokens.set(propertyId, pending);
      // A failed fetch must not be remembered.
      pending.catch(() => tokens.delete(propertyId));
      return pending;
    },
  };
}
