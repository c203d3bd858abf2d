import { describe, expect, it } from 'vitest';
import { loadKnowledge } from '../../src/local/knowledge/load-knowledge.ts';
import { tourSlotsOf, unitsOf } from '../../src/local/property-api/property-data.ts';
import { HARBOR_VIEW, MAPLE_COURT } from './helpers.ts';

const knowledge = loadKnowledge();
const maple = knowledge.propertyFor(MAPLE_COURT);
const harbor = knowledge.propertyFor(HARBOR_VIEW);

describe('tour slots and unit dates follow the property clock', () => {
  it('starts tomorrow in local time, skips closed days and keeps office hours across a DST change', () => {
    // Friday 7 March 2025, 23:30 in Austin (05:30 UTC on the 8th); US clocks change on Sunday 9 March.
    const slots = tourSlotsOf(maple, new Date('2025-03-08T05:30:00Z'));
    const days = [...new Set(slots.map((s) => s.start.slice(0, 10)))];
    expect(days).toEqual(['2025-03-08', '2025-03-10', '2025-03-11', '2025-03-12', '2025-03-13', '2025-03-14']);
    expect(slots[0]).toEqual({ start: '2025-03-08T10:00:00-06:00', end: '2025-03-08T10:30:00-06:00' });
    expect(slots.find((s) => s.start.startsWith('2025-03-10'))?.start).toBe('2025-03-10T10:00:00-05:00');
  });

  it('uses each property\'s own zone, tour length and open days', () => {
    const slots = tourSlotsOf(harbor, new Date('2025-07-04T18:00:00Z'));
    expect(slots[0]).toEqual({ start: '2025-07-05T10:00:00-07:00', end: '2025-07-05T10:45:00-07:00' });
    expect(new Set(slots.map((s) => s.start.slice(0, 10))).size).toBe(7);
  });

  it('dates units from today in the property zone', () => {
    const units = unitsOf(maple, new Date('2025-12-31T12:00:00Z'));
    expect(units.find((u) => u.id === 'A-104')?.available_date).toBe('2025-12-31');
    expect(units.find((u) => u.id === 'A-212')?.available_date).toBe('2026-01-14');
  });
});
