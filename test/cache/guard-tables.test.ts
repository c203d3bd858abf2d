/**
 * Every entry of the question guards' word tables must change the reuse decision (docs/api.md#session-cache: two
 * questions that differ in a number, a negation, a date or weekday, or a unit type never share a
 * reply). The cases are generated from the tables themselves, so a word deleted from a table, or a
 * table emptied, fails here. The threshold is 0 so that only the guards decide: with the real
 * threshold a one-word difference in a short question is refused by similarity alone, which would
 * hide a missing guard word.
 *
 * Equivalent mutants of question-guards.ts (StrykerJS, `npm run test:mutation -- cache`), not killable:
 * - `/^\d/` -> `/\d/` (two places): a token is all letters or starts with a digit.
 * - negation, date and unit terms joined with '' instead of ' ': the terms are fixed words, and no
 *   sequence of them spells another sequence (numbers, which can, are pinned by "1 23" / "12 3").
 */
import { describe, expect, it } from 'vitest';
import type { EngineReply } from '../../schemas/engine.schema.ts';
import { normalisedTokens } from '../../src/cache/normalise-text.ts';
import { DATES, FILLERS, guardTerms, isShortMessage, NEGATIONS, NUMBER_WORDS, UNIT_TYPES } from '../../src/cache/question-guards.ts';
import { findReusableAnswer } from '../../src/cache/reuse-policy.ts';

const TABLES = { number: NUMBER_WORDS, negation: NEGATIONS, 'date or weekday': DATES, 'unit type': UNIT_TYPES } as const;

/** A question with none of the guard words in it. */
const BASE = 'could you tell me about the parking situation for visitors';

function reusesWhenOnlyGuardsDecide(earlier: string, now: string): boolean {
  const reply: EngineReply = { response: 'The reply', intent: 'faq', sub_intent: 'general', retrieval_type: 'rag' };
  const entry = { messages: [], answers: [{ question: earlier, reply, at: 0, language: 'en' as const }], language: 'en' as const };
  return findReusableAnswer(entry, now, 0) !== undefined;
}

const cases = Object.entries(TABLES).flatMap(([kind, table]) => [...table.keys()].map((word) => [kind, word] as const));
/** How many tables list a word ("none" is a number and a negation, "cuarto" a number and a room). */
const tablesListing = (word: string) => Object.values(TABLES).filter((table) => table.has(word)).length;
/** Words grouped by the canonical term they stand for, per table; words of two tables left out. */
const synonymGroups = Object.entries(TABLES).flatMap(([kind, table]) => {
  const groups = new Map<string, string[]>();
  for (const [word, canonical] of table) {
    if (tablesListing(word) === 1) groups.set(canonical, [...(groups.get(canonical) ?? []), word]);
  }
  return [...groups].map(([canonical, words]) => [kind, canonical, words] as const);
});

describe('the guard tables, entry by entry', () => {
  it('the base question holds no guard word and is not a short reply, so one added word is all that differs', () => {
    expect(guardTerms(normalisedTokens(BASE))).toEqual({ numbers: '', negations: '', dates: '', units: '' });
    expect(isShortMessage(normalisedTokens(BASE))).toBe(false);
    expect(reusesWhenOnlyGuardsDecide(BASE, `${BASE} zebra`)).toBe(true);
    expect(cases.length).toBeGreaterThan(200);
  });

  it.each(cases)('a question that adds or drops the %s word %j never shares a reply', (_kind, word) => {
    expect(reusesWhenOnlyGuardsDecide(BASE, `${BASE} ${word}`)).toBe(false);
    expect(reusesWhenOnlyGuardsDecide(`${BASE} ${word}`, BASE)).toBe(false);
  });

  it.each(synonymGroups)('the %s words for %j are one term: %j', (_kind, canonical, words) => {
    for (const word of words) expect(reusesWhenOnlyGuardsDecide(`${BASE} ${words[0]}`, `${BASE} ${word}`), word).toBe(true);
    // A number word and its digits are the same number ("two" == "2").
    if (_kind === 'number' && /^\d+$/.test(canonical)) expect(reusesWhenOnlyGuardsDecide(`${BASE} ${canonical}`, `${BASE} ${words[0]}`)).toBe(true);
  });

  it('a word of two tables counts in both: "none" is neither only "zero" nor only "nothing"', () => {
    expect(reusesWhenOnlyGuardsDecide(`${BASE} zero`, `${BASE} none`)).toBe(false);
    expect(reusesWhenOnlyGuardsDecide(`${BASE} nothing`, `${BASE} none`)).toBe(false);
  });

  it('words for different terms of one table never stand for each other', () => {
    for (const [, table] of Object.entries(TABLES)) {
      const firstWordOf = new Map<string, string>();
      for (const [word, canonical] of table) if (!firstWordOf.has(canonical)) firstWordOf.set(canonical, word);
      const representatives = [...firstWordOf.values()];
      for (const a of representatives) {
        for (const b of representatives) {
          if (a !== b) expect(reusesWhenOnlyGuardsDecide(`${BASE} ${a}`, `${BASE} ${b}`), `${a} / ${b}`).toBe(false);
        }
      }
    }
  });

  it('keeps every entry: a word deleted from a table changes its size (update the size when you add a word)', () => {
    expect(NUMBER_WORDS.size).toBe(112);
    expect(NEGATIONS.size).toBe(24);
    expect(DATES.size).toBe(115);
    expect(UNIT_TYPES.size).toBe(44);
    expect(FILLERS.size).toBe(58);
  });

  it('separate numbers stay separate: "1 23" is not "12 3"', () => {
    expect(reusesWhenOnlyGuardsDecide(`${BASE} 1 23`, `${BASE} 12 3`)).toBe(false);
  });

  it('order counts: "2 bed 1 bath" is not "1 bed 2 bath"', () => {
    expect(reusesWhenOnlyGuardsDecide(`${BASE} 2 bed 1 bath`, `${BASE} 1 bed 2 bath`)).toBe(false);
    expect(reusesWhenOnlyGuardsDecide(`${BASE} 2 bed 1 bath`, `${BASE} two beds one bathroom`)).toBe(true);
  });
});

describe('the filler words, entry by entry', () => {
  it.each([...FILLERS])('%j with two words of substance is still a short reply', (filler) => {
    expect(isShortMessage(normalisedTokens(`${filler} pool hours`))).toBe(true);
  });

  it('three words of substance, or two and a number, are not a short reply; one-letter words never count', () => {
    expect(isShortMessage(normalisedTokens('zebra pool hours'))).toBe(false);
    expect(isShortMessage(normalisedTokens('pool hours 7'))).toBe(false);
    expect(isShortMessage(normalisedTokens('pool hours a'))).toBe(true);
    // Two letters are a word ("go", "to", "it"); digits are a number however short.
    expect(isShortMessage(normalisedTokens('go to it'))).toBe(false);
    expect(isShortMessage(normalisedTokens('go to 3'))).toBe(false);
    expect(isShortMessage(normalisedTokens('sí, gracias, muchas gracias por favor'))).toBe(true);
  });
});
