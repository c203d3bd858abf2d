import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, startTestStack, url, type TestStack } from './helpers.ts';

describe('translator: shapes and unknown text', () => {
  let stack: TestStack;
  let target: string;
  beforeAll(async () => {
    stack = await startTestStack(new Set(['translate']));
    target = `${url(stack, 'translate')}/translate`;
  });
  afterAll(async () => { await stack.dispose(); });

  it('translates a concise paragraph sentence by sentence, whatever its spacing', async () => {
    const res = await postJson(target, {
      text: 'Our leasing office is open Monday to Friday from 9 AM to 6 PM and on Saturday from 10 AM to 5 PM.   We are closed\non Sundays and major holidays.',
      source: 'en', target: 'es',
    });
    expect(res.body).toEqual({
      translated_text: 'Nuestra oficina de arrendamiento abre de lunes a viernes de 9 AM a 6 PM y los sábados de 10 AM a 5 PM. Cerramos los domingos y los días festivos principales.',
      untranslated: [],
    });
  });

  it('translates Markdown data items: names, keys with spaces, values; numbers pass as they are', async () => {
    const text = [
      'Here are the amenities at Maple Court Apartments:',
      '',
      '- **Swimming pool**: hours: 8 AM to 10 PM, fee: Included in rent',
      '- **Unit A-104**: bedrooms: 0, bathrooms: 1, sqft: 520, rent: 1295, available date: 2025-07-01',
      '- **The Oak**: bedrooms: 2, min rent: 1875, max rent: 1990',
    ].join('\n');
    const res = await postJson(target, { text, source: 'en', target: 'es' });
    expect(res.body.untranslated).toEqual([]);
    expect(res.body.translated_text).toBe([
      'Estas son las amenidades de Maple Court Apartments:',
      '',
      '- **Piscina**: horario: 8 AM a 10 PM, costo: Incluido en la renta',
      '- **Unidad A-104**: recámaras: 0, baños: 1, pies cuadrados: 520, renta: 1295, fecha de disponibilidad: 2025-07-01',
      '- **The Oak**: recámaras: 2, renta mínima: 1875, renta máxima: 1990',
    ].join('\n'));
  });

  it('passes unknown English through unchanged and reports it, logging only a count', async () => {
    const res = await postJson(target, {
      text: 'We have 3 apartments that match. Would you like to schedule a tour?',
      source: 'en', target: 'es',
    });
    expect(res.body).toEqual({
      translated_text: 'We have 3 apartments that match. ¿Le gustaría agendar un recorrido?',
      untranslated: ['We have 3 apartments that match.'],
    });
    const warning = stack.logs.filter((l) => l.level === 'warn').at(-1);
    expect(warning?.obj).toEqual({ untranslated: 1, pieces: 2 });
    expect(JSON.stringify(stack.logs)).not.toContain('apartments that match');
  });

  it('returns the text as it is when source and target are the same language', async () => {
    const res = await postJson(target, { text: 'Hola', source: 'es', target: 'es' });
    expect(res.body).toEqual({ translated_text: 'Hola', untranslated: [] });
  });

  it('refuses other language pairs and bodies that do not match docs/contracts.md#translator (400)', async () => {
    expect((await postJson(target, { text: 'Hola', source: 'es', target: 'en' })).status).toBe(400);
    expect((await postJson(target, { text: 'Hi', source: 'en' })).status).toBe(400);
    expect((await postJson(target, { text: 5, source: 'en', target: 'es' })).status).toBe(400);
  });
});
