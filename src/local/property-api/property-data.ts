import type { FloorPlan, TimeSlot, Unit } from '../../../schemas/property-api.schema.ts';
import type { Property } from '../knowledge/knowledge.schema.ts';
import { addDays, civilDate, formatDate, weekday, zonedIso } from './zoned-time.ts';

/** Units with their availability date counted from today in the property's time zone. */
export function unitsOf(p: Property, now: Date): Unit[] {
  const today = civilDate(now, p.timeZone);
  return p.units.map((u) => ({
    id: u.id, name: u.name, bedrooms: u.bedrooms, bathrooms: u.bathrooms, sqft: u.sqft, rent: u.rent,
    available_date: formatDate(addDays(today, u.available_in_days)),
  }));
}

export function floorPlansOf(p: Property): FloorPlan[] {
  return p.floor_plans.map((f) => ({ ...f }));
}

/** Tour slots for the next `days_ahead` days (from tomorrow), in local office time with offset. */
export function tourSlotsOf(p: Property, now: Date): TimeSlot[] {
  const today = civilDate(now, p.timeZone);
  const { days_ahead, closed_weekdays, start_hours, duration_minutes } = p.tours;
  const slots: TimeSlot[] = [];
  for (let i = 1; i <= days_ahead; i++) {
    const day = addDays(today, i);
    if (closed_weekdays.includes(weekday(day))) continue;
    for (const hour of start_hours) {
      slots.push({
        start: zonedIso(day, hour * 60, p.timeZone),
        end: zonedIso(day, hour * 60 + duration_minutes, p.timeZone),
      });
    }
  }
  return slots;
}
