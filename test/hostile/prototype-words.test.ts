import { describe, expect, it } from 'vitest';
import { normalisedTokens } from '../../src/cache/normalise-text.ts';
import { detectLanguage } from '../../src/language/detect-language.ts';
import { similarity } from '../../src/cache/similarity.ts';
import { chatRequest, newSessionId } from '../helpers/fixtures.ts';
import { useStubbedService } from '../helpers/stubbed-service.ts';

/*
 * docs/api.md#limits: a word such as `constructor` or `__proto__` behaves like any other word. Before, the
 * contractions table of the session cache was a plain object, so "constructor" found
 * Object.prototype.constructor: a 500 for the message, and, once cached, for every later message of
 * the session.
 */

const PROTOTYPE_NAMES = [...Object.getOwnPropertyNames(Object.prototype), 'prototype'];

describe('Object.prototype names are ordinary words', () => {
  it.each(PROTOTYPE_NAMES)('normalises "%s" to itself', (name) => {
    const words = `can you tell me about ${name} please`;
    expect(normalisedTokens(words)).toContain(name.toLowerCase().replace(/_/g, ''));
    expect(similarity(words, words)).toBe(1);
    expect(detectLanguage(`${name} ${name}`)).toBe('unknown');
  });
});

const harness = useStubbedService();

describe('a session whose messages hold Object.prototype names', () => {
  it('answers every message 200, including after the first one was cached', async () => {
    const session_id = newSessionId();
    for (const name of ['constructor', ...PROTOTYPE_NAMES]) {
      const res = await harness.chat(chatRequest({ session_id, message: `Is the ${name} of the building allowed to visit on weekdays?` }));
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
    }
  });

  it('keeps serving a session whose first cached message was just "constructor hasOwnProperty toString"', async () => {
    const session_id = newSessionId();
    const first = await harness.chat(chatRequest({ session_id, message: 'constructor hasOwnProperty toString' }));
    expect(first.statusCode).toBe(200);
    const next = await harness.chat(chatRequest({ session_id, message: 'What are your office hours on weekdays?' }));
    expect(next.statusCode).toBe(200);
    const same = await harness.chat(chatRequest({ session_id, message: 'constructor hasOwnProperty toString' }));
    expect(same.statusCode).toBe(200);
  });
});
