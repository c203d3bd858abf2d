import { describe, expect, it } from 'vitest';
import { chatRequest, engineReply } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';
import { sendJson } from '../helpers/stub-server.ts';

const harness = useStubbedService({ PROPERTY_API_TIMEOUT_MS: '300' });

const chat = (payload: Record<string, unknown>) => harness.chat(payload);
const engineAsks = (adapter_action: 'units' | 'floor_plans' | 'tour_slots' | 'neighborhood') =>
  harness.svc.stubs.engine.handle((_req, res) =>
    sendJson(res, 200, engineReply({ retrieval_type: 'adapter', adapter_action, intent: 'availability', sub_intent: adapter_action, response: 'Checking.' })),
  );

describe('adapter replies answered from the property API (loopback)', () => {
  it('units: the reply is built from the API data', async () => {
    engineAsks('units');
    harness.svc.stubs.propertyApi.handle((req, res) =>
      req.path.startsWith('/api/v1/units?propertyId=1234567890123456789')
        ? sendJson(res, 200, { units: [{ id: 7, name: 'B-204', bedrooms: 2, bathrooms: 2, sqft: 1010, rent: 2150, available_date: '2026-01-15' }] })
        : sendJson(res, 404, {}),
    );
    const res = await chat(chatRequest({ message: 'Which two bedroom units are available?' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().retrieval_type).toBe('adapter');
    expect(res.json().response).toContain('$2,150');
    expect(res.json().not_available).toEqual([]);
  });

  it('Spanish: written directly in Spanish, without a translate call', async () => {
    engineAsks('floor_plans');
    harness.svc.stubs.propertyApi.handle((_req, res) =>
      sendJson(res, 200, { floor_plans: [{ id: 'p1', name: 'The Aspen', bedrooms: 1, bathrooms: 1, sqft: 700, min_rent: 1300, max_rent: 1450 }] }),
    );
    const before = harness.svc.stubs.translate.requests.length;
    const res = await chat(chatRequest({ message: '¿Qué planos tienen?', spanish_toggle: true }));
    expect(res.json().language).toBe('es');
    expect(res.json().response).toContain('The Aspen');
    expect(harness.svc.stubs.translate.requests.length).toBe(before);
  });

  it.each([
    ['answering 500', (res: Parameters<Parameters<typeof harness.svc.stubs.propertyApi.handle>[0]>[1]) => sendJson(res, 500, {})],
    ['answering out of contract', (res: Parameters<Parameters<typeof harness.svc.stubs.propertyApi.handle>[0]>[1]) => sendJson(res, 200, { units: 'many' })],
    ['too slow', async (res: Parameters<Parameters<typeof harness.svc.stubs.propertyApi.handle>[0]>[1]) => {
      await new Promise((r) => setTimeout(r, 800));
      sendJson(res, 200, { units: [] });
    }],
  ])('property API %s: a polite reply, never a 5xx', async (_name, respond) => {
    engineAsks('units');
    harness.svc.stubs.propertyApi.handle((_req, res) => respond(res));
    const res = await chat(chatRequest({ message: 'Do you have any units available?' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().not_available).toEqual(['units']);
    expect(res.json().response).toMatch(/not available|right now/i);
  });

  it('a propertyId the API does not know (404): says the property is not known, not "try again later"', async () => {
    engineAsks('floor_plans');
    harness.svc.stubs.propertyApi.handle((_req, res) => sendJson(res, 404, { detail: 'Unknown propertyId' }));
    const res = await chat(chatRequest({ message: 'Which floor plans do you have?' }));
    expect(res.statusCode).toBe(200);
    expect(res.json().not_available).toEqual(['floor_plans']);
    expect(res.json().response).toBe("I don't have this property on record, so I can't look up its floor plans. The leasing office can help you directly.");
    const es = await chat(chatRequest({ message: '¿Qué planos tienen?', spanish_toggle: true }));
    expect(es.json().response).toBe('No tengo esta propiedad registrada, así que no puedo consultar sus planos de planta. La oficina de arrendamiento puede ayudarle directamente.');
  });
});
