import { describe, expect, it } from 'vitest';
import type { FloorPlan, TimeSlot, Unit } from '../../schemas/property-api.schema.ts';
import {
  describeFloorPlans, describeNeighborhood, describeTourSlots, describeUnits, notAvailableNow, toursByOffice,
} from '../../src/reply/property-answers.ts';

const now = new Date('2025-03-10T12:00:00Z');
const unit = (name: string, rent: number, bedrooms: number, available_date: string, sqft = 750, bathrooms = 1): Unit =>
  ({ id: name, name, bedrooms, bathrooms, sqft, rent, available_date });
const units: Unit[] = [
  unit('305', 2100, 2, '2025-04-15', 1100, 2),
  unit('2104', 1450, 1, '2025-03-01'),
  unit('Penthouse A', 4200, 3, '2026-01-01', 1800, 2.5),
  unit('12B', 1200, 0, '2025-03-10', 500),
  unit('7C', 1600, 1, '2025-03-20', 700),
];

describe('describeUnits', () => {
  it('gives the count, the price range and the three cheapest units first (en)', () => {
    const text = describeUnits(units, 'en', { now });
    expect(text).toBe(
      'We have 5 units available, from $1,200 to $4,200 a month. '
      + 'Unit 12B: studio, 1 bath, 500 sq ft, $1,200 a month, available now. '
      + 'Unit 2104: 1 bedroom, 1 bath, 750 sq ft, $1,450 a month, available now. '
      + 'Unit 7C: 1 bedroom, 1 bath, 700 sq ft, $1,600 a month, available from March 20. '
      + 'There are 2 more units.',
    );
  });

  it('says the same in Spanish', () => {
    const text = describeUnits(units, 'es', { now });
    expect(text).toBe(
      'Tenemos 5 unidades disponibles, desde $1,200 hasta $4,200 al mes. '
      + 'Unidad 12B: estudio, 1 baño, 500 pies cuadrados, $1,200 al mes, disponible ahora. '
      + 'Unidad 2104: 1 habitación, 1 baño, 750 pies cuadrados, $1,450 al mes, disponible ahora. '
      + 'Unidad 7C: 1 habitación, 1 baño, 700 pies cuadrados, $1,600 al mes, disponible desde el 20 de marzo. '
      + 'Hay 2 unidades más.',
    );
  });

  it('handles one unit, a later year, half baths and names that say what they are', () => {
    expect(describeUnits([units[2]!], 'en', { now })).toBe(
      'We have 1 unit available at $4,200 a month. Penthouse A: 3 bedrooms, 2.5 baths, 1,800 sq ft, $4,200 a month, available from January 1, 2026.',
    );
  });

  it('reads an available date as a calendar day, whatever the time zone', () => {
    const text = describeUnits([unit('7C', 1600, 1, '2025-03-20')], 'en', { now, timeZone: 'America/Los_Angeles' });
    expect(text).toContain('available from March 20.');
  });

  it('sorts by rent whatever the input order', () => {
    const reversed = describeUnits([...units].reverse(), 'en', { now });
    expect(reversed).toBe(describeUnits(units, 'en', { now }));
    expect(reversed.indexOf('Unit 12B')).toBeLessThan(reversed.indexOf('Unit 2104'));
  });

  it('leaves out what is unknown instead of printing zeros or bad dates', () => {
    const text = describeUnits([unit('9', 0, 2, 'soon', 0, 0)], 'en', { now });
    expect(text).toBe('We have 1 unit available. Unit 9: 2 bedrooms.');
  });

  it('says plainly when no unit is available', () => {
    expect(describeUnits([], 'en')).toMatch(/^No units are available right now\./);
    expect(describeUnits([], 'es')).toMatch(/^No hay unidades disponibles en este momento\./);
  });

  it('stays within the concise limit for a long list', () => {
    const many = Array.from({ length: 60 }, (_, i) => unit(String(100 + i), 1000 + i * 10, i % 4, '2025-05-01', 900, 2));
    for (const lang of ['en', 'es'] as const) expect(describeUnits(many, lang, { now }).length).toBeLessThanOrEqual(500);
  });
});

describe('describeFloorPlans', () => {
  const plan = (name: string, bedrooms: number, min_rent: number, max_rent: number): FloorPlan =>
    ({ id: name, name, bedrooms, bathrooms: Math.max(1, bedrooms), sqft: 500 + bedrooms * 300, min_rent, max_rent });
  const plans = [plan('Cedar', 3, 0, 0), plan('The Birch', 2, 2100, 2100), plan('The Aspen', 0, 1200, 1350), plan('Dogwood', 1, 1500, 1700), plan('Elm', 1, 1550, 1600)];

  it('lists the cheapest plans first with their price ranges (en and es)', () => {
    expect(describeFloorPlans(plans, 'en')).toBe(
      'We have 5 floor plans, starting at $1,200 a month. '
      + 'The Aspen: studio, 1 bath, 500 sq ft, $1,200 to $1,350 a month. '
      + 'Dogwood: 1 bedroom, 1 bath, 800 sq ft, $1,500 to $1,700 a month. '
      + 'Elm: 1 bedroom, 1 bath, 800 sq ft, $1,550 to $1,600 a month. '
      + 'There are 2 more floor plans.',
    );
    expect(describeFloorPlans(plans, 'es')).toBe(
      'Tenemos 5 planos de planta, desde $1,200 al mes. '
      + 'The Aspen: estudio, 1 baño, 500 pies cuadrados, de $1,200 a $1,350 al mes. '
      + 'Dogwood: 1 habitación, 1 baño, 800 pies cuadrados, de $1,500 a $1,700 al mes. '
      + 'Elm: 1 habitación, 1 baño, 800 pies cuadrados, de $1,550 a $1,600 al mes. '
      + 'Hay 2 planos más.',
    );
  });

  it('shows one price when min and max agree, and puts unpriced plans last', () => {
    const text = describeFloorPlans([plan('Cedar', 3, 0, 0), plan('The Birch', 2, 2100, 2100)], 'en');
    expect(text).toBe('We have 2 floor plans, starting at $2,100 a month. The Birch: 2 bedrooms, 2 baths, 1,100 sq ft, $2,100 a month. Cedar: 3 bedrooms, 3 baths, 1,400 sq ft, pricing on request.');
  });

  it('says plainly when there are none', () => {
    expect(describeFloorPlans([], 'en')).toMatch(/^No floor plans are listed right now\./);
    expect(describeFloorPlans([], 'es')).toMatch(/^No hay planos de planta publicados/);
  });
});

describe('describeTourSlots', () => {
  const slot = (start: string, end: string): TimeSlot => ({ start, end });
  const slots = [
    slot('2025-03-17T13:00:00Z', '2025-03-17T14:00:00Z'),
    slot('2025-03-15T16:00:00Z', '2025-03-15T17:00:00Z'),
    slot('2025-03-15T14:00:00Z', '2025-03-15T15:00:00Z'),
    slot('2025-03-15T14:00:00Z', '2025-03-15T15:00:00Z'), // duplicate
    slot('2025-03-09T14:00:00Z', '2025-03-09T15:00:00Z'), // past
    slot('not a date', '2025-03-20T10:00:00Z'), // broken
    slot('2025-03-21T10:00:00Z', '2025-03-21T09:00:00Z'), // ends before it starts
  ];

  it('lists future slots in order, grouped by day, in UTC by default', () => {
    expect(describeTourSlots(slots, 'en', { now })).toBe(
      'There are 3 tour times available: Saturday, March 15, 2:00 PM to 3:00 PM and 4:00 PM to 5:00 PM; or Monday, March 17, 1:00 PM to 2:00 PM. Which one works for you?',
    );
    expect(describeTourSlots(slots, 'es', { now })).toBe(
      'Hay 3 horarios disponibles para visitas: sábado, 15 de marzo, de 2:00 p.m. a 3:00 p.m. y de 4:00 p.m. a 5:00 p.m.; o lunes, 17 de marzo, de 1:00 p.m. a 2:00 p.m. ¿Cuál le conviene?',
    );
  });

  it('uses the given time zone, which can move a slot to another day', () => {
    const late = [slot('2025-03-15T02:00:00Z', '2025-03-15T03:00:00Z')];
    expect(describeTourSlots(late, 'en', { now })).toBe('There is 1 tour time available: Saturday, March 15, 2:00 AM to 3:00 AM. Does that work for you?');
    expect(describeTourSlots(late, 'en', { now, timeZone: 'America/New_York' })).toBe(
      'There is 1 tour time available: Friday, March 14, 10:00 PM to 11:00 PM. Does that work for you?',
    );
    expect(describeTourSlots(late, 'en', { now, timeZone: 'Not/AZone' })).toBe(describeTourSlots(late, 'en', { now }));
  });

  it('shows the next four of a long list', () => {
    const many = Array.from({ length: 10 }, (_, i) => slot(`2025-03-${String(11 + i).padStart(2, '0')}T15:00:00Z`, `2025-03-${String(11 + i).padStart(2, '0')}T16:00:00Z`));
    const text = describeTourSlots(many, 'en', { now });
    expect(text).toMatch(/^There are 10 tour times available\. The next ones are: Tuesday, March 11, /);
    expect(text).toContain('or Friday, March 14, 3:00 PM to 4:00 PM.');
    expect(text).not.toContain('March 15');
    expect(text.length).toBeLessThanOrEqual(500);
  });

  it('says plainly when nothing is open (nothing at all, or only past slots)', () => {
    expect(describeTourSlots([], 'en', { now })).toMatch(/^There are no open tour times right now\./);
    expect(describeTourSlots([slots[4]!], 'es', { now })).toMatch(/^No hay horarios de visita disponibles/);
  });
});

describe('fixed answers', () => {
  it('says that the office schedules tours when scheduling is off', () => {
    expect(toursByOffice('en')).toMatch(/^Tours are scheduled directly by our leasing office\./);
    expect(toursByOffice('es')).toMatch(/^Las visitas se programan directamente con nuestra oficina/);
  });

  it('has a distinct polite message per topic and language', () => {
    const topics = ['units', 'floor_plans', 'tour_slots', 'neighborhood'] as const;
    const texts = topics.flatMap((t) => [notAvailableNow(t, 'en'), notAvailableNow(t, 'es')]);
    expect(new Set(texts).size).toBe(8);
    expect(notAvailableNow('units', 'en')).toMatch(/units right now.*try again/);
    expect(notAvailableNow('tour_slots', 'es')).toMatch(/horarios de visita en este momento/);
  });
});

describe('describeNeighborhood', () => {
  it('lists distinct places, trimmed, in the reply language', () => {
    const keywords = ['grocery stores', ' parks ', 'Parks', '', 'restaurants'];
    expect(describeNeighborhood(keywords, 'en')).toBe("Near the property you'll find grocery stores, parks, and restaurants.");
    expect(describeNeighborhood(keywords, 'es')).toBe('Cerca de la propiedad encontrará grocery stores, parks y restaurants.');
  });

  it('shows at most six places', () => {
    const text = describeNeighborhood(['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'], 'en');
    expect(text).toBe("Near the property you'll find a1, a2, a3, a4, a5, a6, and more.");
  });

  it('says plainly when there is nothing', () => {
    expect(describeNeighborhood(['', '  '], 'en')).toMatch(/^I don't have neighborhood details/);
    expect(describeNeighborhood([], 'es')).toMatch(/^No tengo detalles del vecindario/);
  });
});
