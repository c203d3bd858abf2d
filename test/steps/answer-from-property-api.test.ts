import { describe, expect, it } from 'vitest';
import { DownstreamError, OutboundRequestError } from '../../src/errors.ts';
import { answerFromPropertyApi } from '../../steps/answer-from-property-api.ts';
import { engineReply } from '../helpers/fixtures.ts';
import { fakeDeps } from './fake-deps.ts';
import { answeredContext, validRequest } from './step-context.ts';

const adapter = (adapter_action: 'units' | 'floor_plans' | 'tour_slots' | 'neighborhood') =>
  engineReply({ retrieval_type: 'adapter', adapter_action, intent: 'availability', sub_intent: adapter_action, response: 'Let me check.' });

const unit = { id: 'u1', name: 'A-101', bedrooms: 2, bathrooms: 1, sqft: 850, rent: 1450, available_date: '2025-12-01' };

describe('answerFromPropertyApi', () => {
  it('leaves replies that are not adapter replies alone', async () => {
    const { deps } = fakeDeps({ propertyApi: { units: async () => { throw new Error('must not be called'); } } });
    expect(await answerFromPropertyApi(answeredContext(), deps)).toEqual({});
  });

  it('answers units from the property API, in the reply language', async () => {
    const asked: string[] = [];
    const { deps } = fakeDeps({ propertyApi: { units: async (id) => { asked.push(id); return [unit]; } } });
    const ctx = answeredContext(validRequest(), { engineReply: adapter('units') });
    const patch = await answerFromPropertyApi(ctx, deps);
    expect(asked).toEqual([ctx.request.propertyId]);
    expect(patch.engineReply?.response).toContain('$1,450');
    expect(patch.engineReply?.response).not.toBe('Let me check.');
    expect(patch.engineReply?.language).toBe('en');

    const es = await answerFromPropertyApi({ ...ctx, language: 'es' }, deps);
    expect(es.engineReply?.language).toBe('es');
    expect(es.engineReply?.response).not.toBe(patch.engineReply?.response);
  });

  it('passes the visitor message as the neighborhood query', async () => {
    const queries: string[] = [];
    const { deps } = fakeDeps({ propertyApi: { neighborhoodKeywords: async (_id, q) => { queries.push(q); return ['Riverside Park', 'Blue Bottle Coffee']; } } });
    const ctx = answeredContext(validRequest({ message: 'What is near the building?' }), { engineReply: adapter('neighborhood') });
    const patch = await answerFromPropertyApi(ctx, deps);
    expect(queries).toEqual(['What is near the building?']);
    expect(patch.engineReply?.response).toContain('Riverside Park');
  });

  it('does not fetch tour slots when tour scheduling is off, and says the office schedules tours', async () => {
    let fetched = false;
    const slots = [{ start: '2026-01-02T15:00:00Z', end: '2026-01-02T16:00:00Z' }];
    const { deps } = fakeDeps({ propertyApi: { tourSlots: async () => { fetched = true; return slots; } } });
    const off = await answerFromPropertyApi(answeredContext(validRequest({ tourScheduleEnabled: false }), { engineReply: adapter('tour_slots') }), deps);
    expect(fetched).toBe(false);
    expect(off.engineReply?.response).toMatch(/office/i);
    const on = await answerFromPropertyApi(answeredContext(validRequest({ tourScheduleEnabled: true }), { engineReply: adapter('tour_slots') }), deps);
    expect(fetched).toBe(true);
    expect(on.engineReply?.response).not.toBe(off.engineReply?.response);
  });

  it('a failing property API degrades the reply and names the topic in not_available', async () => {
    const { deps, calls } = fakeDeps({ propertyApi: { floorPlans: async () => { throw new DownstreamError('propertyApi', 'timed out'); } } });
    const ctx = answeredContext(validRequest(), { engineReply: adapter('floor_plans') });
    const patch = await answerFromPropertyApi(ctx, deps);
    expect(patch.engineReply?.not_available).toEqual(['floor_plans']);
    expect(patch.engineReply?.response).toMatch(/not available|right now/i);
    expect(calls.logs.map((l) => l.level)).toContain('warn');
  });

  it('a property the API does not know (404) is said so, in the reply language, without "try again later"', async () => {
    const unknown = new DownstreamError('propertyApi', 'answered 404', { status: 404 });
    const { deps } = fakeDeps({ propertyApi: { units: async () => { throw unknown; }, tourSlots: async () => { throw unknown; } } });
    const en = await answerFromPropertyApi(answeredContext(validRequest(), { engineReply: adapter('units') }), deps);
    expect(en.engineReply?.response).toBe("I don't have this property on record, so I can't look up its available units. The leasing office can help you directly.");
    expect(en.engineReply?.not_available).toEqual(['units']);
    const es = await answerFromPropertyApi({ ...answeredContext(validRequest(), { engineReply: adapter('tour_slots') }), language: 'es' }, deps);
    expect(es.engineReply?.response).toBe('No tengo esta propiedad registrada, así que no puedo consultar sus horarios de visita. La oficina de arrendamiento puede ayudarle directamente.');
    expect(es.engineReply?.language).toBe('es');
    // Any other status is an outage: "right now", try again later.
    const { deps: down } = fakeDeps({ propertyApi: { units: async () => { throw new DownstreamError('propertyApi', 'answered 503', { status: 503 }); } } });
    const outage = await answerFromPropertyApi(answeredContext(validRequest(), { engineReply: adapter('units') }), down);
    expect(outage.engineReply?.response).toMatch(/right now\. Please try again/);
  });

  it('a request the service could not build is its own failure: thrown (a 500), not a polite reply blaming the API', async () => {
    const failure = new OutboundRequestError('propertyApi', new TypeError('Do not know how to serialize a BigInt'));
    const { deps, calls } = fakeDeps({ propertyApi: { units: async () => { throw failure; } } });
    const ctx = answeredContext(validRequest(), { engineReply: adapter('units') });
    await expect(answerFromPropertyApi(ctx, deps)).rejects.toBe(failure);
    expect(calls.logs).toEqual([]);
  });
});

describe('answerFromPropertyApi: tour times in the property time', () => {
  const ctx = answeredContext(validRequest({ tourScheduleEnabled: true }), { engineReply: adapter('tour_slots') });

  it('uses the UTC offset the slots are written with', async () => {
    const slots = [{ start: '2026-01-02T10:00:00-06:00', end: '2026-01-02T11:00:00-06:00' }];
    const { deps } = fakeDeps({ propertyApi: { tourSlots: async () => slots } });
    const text = (await answerFromPropertyApi(ctx, deps)).engineReply?.response ?? '';
    expect(text).toContain('10:00 AM');
    expect(text).not.toContain('4:00 PM');
  });

  it('falls back to PROPERTY_TIME_ZONE for slots written in UTC', async () => {
    const slots = [{ start: '2026-01-02T16:00:00Z', end: '2026-01-02T17:00:00Z' }];
    const { deps } = fakeDeps({ propertyApi: { tourSlots: async () => slots } });
    const text = (await answerFromPropertyApi(ctx, deps)).engineReply?.response ?? '';
    expect(text).toContain('4:00 PM'); // fake deps use UTC
  });
});

describe('answerFromPropertyApi: the bedroom count asked for', () => {
  const units = [
    { ...unit, id: 'a', name: 'A-104', bedrooms: 0, rent: 1295 },
    { ...unit, id: 'b', name: 'B-220', bedrooms: 2, rent: 1850 },
    { ...unit, id: 'c', name: 'C-301', bedrooms: 2, rent: 1990 },
  ];
  const ask = async (keyword_cache: Record<string, unknown>) => {
    const { deps } = fakeDeps({ propertyApi: { units: async () => units } });
    const ctx = answeredContext(validRequest(), { engineReply: { ...adapter('units'), keyword_cache } });
    return (await answerFromPropertyApi(ctx, deps)).engineReply?.response ?? '';
  };

  it('lists only units with the requested number of bedrooms', async () => {
    const text = await ask({ bedrooms: 2 });
    expect(text).toContain('B-220');
    expect(text).toContain('C-301');
    expect(text).not.toContain('A-104');
  });

  it('lists every unit when none has that size, or no size was asked for', async () => {
    expect(await ask({ bedrooms: 3 })).toContain('A-104');
    expect(await ask({})).toContain('A-104');
  });
});
