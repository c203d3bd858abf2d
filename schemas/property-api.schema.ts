import { Type, type Static } from '@sinclair/typebox';

/** docs/contracts.md#property-api: the property management API's answers. */
const Num = Type.Number();

export const UnitSchema = Type.Object({
  id: Type.Union([Type.String(), Num]),
  name: Type.String(),
  bedrooms: Num,
  bathrooms: Num,
  sqft: Num,
  rent: Num,
  available_date: Type.String(),
});
export type Unit = Static<typeof UnitSchema>;
export const UnitsReplySchema = Type.Object({ units: Type.Array(UnitSchema) });

export const FloorPlanSchema = Type.Object({
  id: Type.Union([Type.String(), Num]),
  name: Type.String(),
  bedrooms: Num,
  bathrooms: Num,
  sqft: Num,
  min_rent: Num,
  max_rent: Num,
});
export type FloorPlan = Static<typeof FloorPlanSchema>;
export const FloorPlansReplySchema = Type.Object({ floor_plans: Type.Array(FloorPlanSchema) });

export const TimeSlotSchema = Type.Object({ start: Type.String(), end: Type.String() });
export type TimeSlot = Static<typeof TimeSlotSchema>;
export const TimeSlotsReplySchema = Type.Object({ time_slots: Type.Array(TimeSlotSchema) });

export const NeighborhoodQuerySchema = Type.Object({ propertyId: Type.String(), query: Type.String() });
export const NeighborhoodReplySchema = Type.Object({ keywords: Type.Array(Type.String()) });

export const ApiTokenReplySchema = Type.Object({ token: Type.String() });
