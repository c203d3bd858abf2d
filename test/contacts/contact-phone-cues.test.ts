/**
 * The words before and after a candidate number that make it a phone or something else
 * (src/contacts/phone-context.ts, labelBefore and labelledAfterAsOther), every entry of the word
 * tables a generated case that must change the outcome.
 *
 * The number used, "28 24 82 77 19", is possible but not valid (282 is not yet an area code) and not
 * laid out like a US phone: only what the words say decides whether it is kept.
 *
 * Mutants of phone-context.ts left alive on purpose (equivalent: no input can tell them apart):
 * - `i >= 0` -> `true`: past the first token the loop reads `undefined ?? ''`, a word that labels
 *   nothing, until the word limit ends it.
 * - `tokens[i] ?? ''` -> any string: `i` stays within the array, the fallback is never used.
 * - `tokens[i - 1] ?? ''` -> any other string: only an owner word ("my") would change the answer.
 * - TOKEN's class in front of the digits (`[\p{L}\p{N}]*`) negated: it only changes what is glued
 *   in front of a token holding a digit, and the look-back stops at that token.
 * - TOKEN's class after the digits negated (`[^\p{L}\p{N}]*`, `[\P{L}\p{N}]*`): a token holding a
 *   digit still stops the look-back; they differ only for a label word glued to the end of digits
 *   ("12unit"), which nobody writes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OWNER_BEFORE_NUMBER } from '../../src/contacts/phone-context.ts';
import { findPhone } from '../../src/contacts/phone.ts';
import { GENERIC_NUMBER_WORDS, NOT_PHONE_WORDS, PHONE_WORDS } from '../../src/contacts/phone-words.ts';

const phone = (text: string): string | null => findPhone(text, 'US');
const UNMARKED = '28 24 82 77 19';
const UNMARKED_E164 = '+12824827719';
const VALID = '305-482-7719';
const VALID_E164 = '+13054827719';

describe('phone cues: every word of the tables changes what is kept', () => {
  it('keeps the unmarked number only when words say it is a phone', () => {
    expect(phone(`okay ${UNMARKED}`)).toBeNull();
    expect(phone(`I think ${UNMARKED}`)).toBeNull();
    expect(phone(`call me at ${VALID}`)).toBe(VALID_E164);
  });

  it.each([...PHONE_WORDS])('%j before a number makes it a phone', (word) => {
    expect(phone(`${word} ${UNMARKED}`)).toBe(UNMARKED_E164);
  });

  it.each([...GENERIC_NUMBER_WORDS])('%j alone before a number makes it a phone, but not after a label ("confirmation %s")', (word) => {
    expect(phone(`${word} ${UNMARKED}`)).toBe(UNMARKED_E164);
    expect(phone(`confirmation ${word} ${VALID}`)).toBeNull();
  });

  it.each([...NOT_PHONE_WORDS])('%j labels the digits after it as something else, even after "call me"', (word) => {
    expect(phone(`call me, ${word} ${VALID}`)).toBeNull();
  });

  it('"my number", "mi número": the writer\'s own number, whatever label stands further back', () => {
    expect(OWNER_BEFORE_NUMBER.size).toBe(4);
    for (const owner of OWNER_BEFORE_NUMBER) {
      for (const number of GENERIC_NUMBER_WORDS) {
        expect(phone(`reserva, ${owner} ${number} ${UNMARKED}`), `${owner} ${number}`).toBe(UNMARKED_E164);
      }
    }
    expect(phone(`reserva, the number ${UNMARKED}`)).toBeNull();
  });
});

describe('phone cues: how far back words are read', () => {
  // Words that label nothing, contractions included: "you're" is one word.
  const filler = fc.constantFrom('when', 'you', 'get', "you're", 'in', "we'll", 'maybe', 'today', 'please', 'then');

  it('reads a cue up to six words before the number, and no further', () => {
    fc.assert(
      fc.property(fc.array(filler, { maxLength: 9 }), (between) => {
        const text = ['text', ...between, UNMARKED].join(' ');
        expect(phone(text)).toBe(between.length <= 5 ? UNMARKED_E164 : null);
      }),
    );
  });

  it('"number" words do not use up the six words', () => {
    expect(phone(`call me when you get in number # ${UNMARKED}`)).toBe(UNMARKED_E164);
  });

  it('stops at other digits: a label before them labels them, not the phone after them', () => {
    expect(phone(`unit 1203 ${VALID}`)).toBe(VALID_E164);
    expect(phone(`I'm in apt 4 at ${VALID}`)).toBe(VALID_E164);
  });
});

describe('the "is my X" rule: a label after the number', () => {
  it.each([...NOT_PHONE_WORDS])('"<number> is my %s" is not a phone', (word) => {
    expect(phone(`${VALID} is my ${word}`)).toBeNull();
  });

  it('keeps a number followed by "is my cell", or by a label further on', () => {
    expect(phone(`${VALID} is my cell, call anytime`)).toBe(VALID_E164);
    expect(phone(`call me at ${VALID}, what I want to know is the rent`)).toBe(VALID_E164);
  });

  it('reads the label however the words are spaced and however many qualifiers stand before it', () => {
    expect(phone(`${VALID}  is  my  confirmation number`)).toBeNull();
    expect(phone(`${VALID}\n is my booking`)).toBeNull();
    expect(phone(`${VALID} es el número de mi reserva, llámenme`)).toBeNull();
    expect(phone(`${VALID} es el numero de la orden`)).toBeNull();
  });
});
