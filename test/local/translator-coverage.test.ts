import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyCatalogue } from '../../src/local/engine/reply-catalogue.ts';
import { loadKnowledge } from '../../src/local/knowledge/load-knowledge.ts';
import { formatLikeService } from './format-like-service.ts';
import { HARBOR_VIEW, MAPLE_COURT, engineRequest, postJson, startTestStack, url, type TestStack } from './helpers.ts';

const catalogue = replyCatalogue(loadKnowledge());

describe('translator covers every text the reference engine can produce', () => {
  let stack: TestStack;
  let translate: (text: string) => Promise<{ translated_text: string; untranslated: string[] }>;
  beforeAll(async () => {
    stack = await startTestStack(new Set(['engine', 'translate']));
    translate = async (text) => {
      const res = await postJson(`${url(stack, 'translate')}/translate`, { text, source: 'en', target: 'es' });
      expect(res.status).toBe(200);
      return res.body;
    };
  });
  afterAll(async () => { await stack.dispose(); });

  it('has every reply of both properties in its catalogue', () => {
    expect(new Set(catalogue.map((e) => e.propertyId))).toEqual(new Set([MAPLE_COURT, HARBOR_VIEW]));
    expect(catalogue.length).toBeGreaterThanOrEqual(2 * 25);
  });

  it('translates every reply, formatted as the service formats it, with nothing left over', async () => {
    const leftovers: string[] = [];
    for (const entry of catalogue) {
      const formatted = formatLikeService(entry.composed);
      const result = await translate(formatted);
      leftovers.push(...result.untranslated.map((u) => `${entry.propertyId}/${entry.reply}: ${u}`));
      expect(result.translated_text).not.toBe(formatted);
      if (entry.composed.sub_intent === 'neighborhood_summary') {
        expect(result.translated_text.split('\n\n')).toHaveLength(formatted.split('\n\n').length);
      }
    }
    expect(leftovers).toEqual([]);
  });

  it('translates every follow-up', async () => {
    const followUps = [...new Set(catalogue.map((e) => e.composed.follow_up).filter((f) => f !== ''))];
    for (const followUp of followUps) {
      const result = await translate(followUp);
      expect(result.untranslated).toEqual([]);
      expect(result.translated_text).not.toBe(followUp);
    }
  });

  it('only ever answers with catalogue texts (so the coverage above is complete)', async () => {
    const known = new Set(catalogue.map((e) => `${e.propertyId}|${e.composed.response}|${e.composed.follow_up}`));
    const messages = [
      'hello', 'thanks, bye', 'what are your hours', 'pets?', 'parking', 'amenities', 'how much is rent', 'utilities?',
      'any units available', 'floor plans', 'book a tour', 'what is the area like', 'coffee shops nearby?',
      'my sink is clogged', 'gas leak!', 'I want to complain', 'my email is a@example.com', 'office phone number',
      'agent please', 'tell me a joke', '¿Cuánto es el depósito?', 'Quiero hablar con una persona',
    ];
    for (const propertyId of [MAPLE_COURT, HARBOR_VIEW]) {
      for (const tourScheduleEnabled of [true, false]) {
        for (const message of messages) {
          const res = await postJson(`${url(stack, 'engine')}/query`, engineRequest(message, { propertyId, tourScheduleEnabled }));
          expect(known.has(`${propertyId}|${res.body.response}|${res.body.follow_up}`)).toBe(true);
        }
      }
    }
  });
});
