import { Value } from '@sinclair/typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiTokenReplySchema, FloorPlansReplySchema, NeighborhoodReplySchema, TimeSlotsReplySchema, UnitsReplySchema,
} from '../../schemas/property-api.schema.ts';
import { HARBOR_VIEW, MAPLE_COURT, getJson, postJson, startTestStack, url, type TestStack } from './helpers.ts';

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const DAY_MS = 86_400_000;

describe('local property API', () => {
  let stack: TestStack;
  let api: string;
  beforeAll(async () => {
    stack = await startTestStack(new Set(['propertyApi']));
    api = url(stack, 'propertyApi');
  });
  afterAll(async () => { await stack.dispose(); });

  it('lists units with availability dates from today on', async () => {
    const res = await getJson(`${api}/api/v1/units?propertyId=${MAPLE_COURT}`);
    expect(res.status).toBe(200);
    expect(Value.Check(UnitsReplySchema, res.body)).toBe(true);
    expect(res.body.units).toContainEqual(expect.objectContaining({ id: 'B-305', bedrooms: 2, bathrooms: 2, rent: 1875 }));
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    for (const unit of res.body.units) {
      expect(unit.available_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(unit.available_date >= yesterday).toBe(true);
    }
  });

  it('lists floor plans at the path with its trailing slash (and without it)', async () => {
    const res = await getJson(`${api}/api/v1/floor_plans/?propertyId=${HARBOR_VIEW}`);
    expect(res.status).toBe(200);
    expect(Value.Check(FloorPlansReplySchema, res.body)).toBe(true);
    expect(res.body.floor_plans.map((f: any) => f.name)).toEqual(['The Marina', 'The Pier', 'The Lighthouse']);
    expect((await getJson(`${api}/api/v1/floor_plans?propertyId=${HARBOR_VIEW}`)).body).toEqual(res.body);
  });

  it('offers tour slots over the next days, in the future, as ISO 8601 with the local offset', async () => {
    const res = await getJson(`${api}/api/v1/apartments/all_type_available_time_slots?propertyId=${MAPLE_COURT}`);
    expect(res.status).toBe(200);
    expect(Value.Check(TimeSlotsReplySchema, res.body)).toBe(true);
    expect(res.body.time_slots.length).toBeGreaterThan(20);
    for (const slot of res.body.time_slots) {
      expect(slot.start).toMatch(ISO_WITH_OFFSET);
      const start = Date.parse(slot.start);
      expect(start).toBeGreaterThan(Date.now());
      expect(start).toBeLessThan(Date.now() + 8 * DAY_MS);
      expect(Date.parse(slot.end) - start).toBe(30 * 60_000);
      // Maple Court shows no tours on Sundays (its local date is the date part of the string).
      expect(new Date(`${slot.start.slice(0, 10)}T12:00:00Z`).getUTCDay()).not.toBe(0);
    }
  });

  it('extracts neighborhood keywords from a question', async () => {
    const res = await postJson(`${api}/api/v1/service/google_query`, { propertyId: MAPLE_COURT, query: '¿Hay un supermercado o un parque cerca?' });
    expect(res.status).toBe(200);
    expect(Value.Check(NeighborhoodReplySchema, res.body)).toBe(true);
    expect(res.body.keywords).toEqual(['grocery store', 'park']);
    const none = await postJson(`${api}/api/v1/service/google_query`, { propertyId: MAPLE_COURT, query: 'What is it like?' });
    expect(none.body).toEqual({ keywords: [] });
  });

  it('gives each property a stable Base64URL GraphQL token', async () => {
    const maple = await getJson(`${api}/api/v1/properties/api_token?propertyId=${MAPLE_COURT}`);
    expect(Value.Check(ApiTokenReplySchema, maple.body)).toBe(true);
    expect(maple.body.token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect((await getJson(`${api}/api/v1/properties/api_token?propertyId=${MAPLE_COURT}`)).body).toEqual(maple.body);
    expect((await getJson(`${api}/api/v1/properties/api_token?propertyId=${HARBOR_VIEW}`)).body.token).not.toBe(maple.body.token);
  });

  it('answers 404 JSON for an unknown property and 400 without propertyId', async () => {
    const unknown = '1111111111111111111';
    for (const path of ['/api/v1/units', '/api/v1/floor_plans/', '/api/v1/apartments/all_type_available_time_slots', '/api/v1/properties/api_token']) {
      expect(await getJson(`${api}${path}?propertyId=${unknown}`)).toEqual({ status: 404, body: { detail: 'Unknown propertyId' } });
      expect((await getJson(`${api}${path}`)).status).toBe(400);
    }
    expect((await postJson(`${api}/api/v1/service/google_query`, { propertyId: unknown, query: 'parks' })).status).toBe(404);
    expect((await postJson(`${api}/api/v1/service/google_query`, { query: 'parks' })).status).toBe(400);
    expect(await getJson(`${api}/api/v1/nothing-here`)).toEqual({ status: 404, body: { detail: 'Not Found' } });
  });
});
