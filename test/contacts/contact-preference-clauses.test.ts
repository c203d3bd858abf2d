/**
 * Which of two phones reaches the agent, decided by the words of each detail's own clause
 * (src/contacts/preference.ts): where a clause ends, the words after a detail, the kind named as
 * better, and that a detail someone else owns or the visitor refuses is never taken.
 *
 * Mutants of preference.ts left alive on purpose (equivalent):
 * - `words[i - 1] ?? ''` -> any other string, in standingBefore and someoneElses: only a word of
 *   PROPERTY_OFFICE_BEFORE would change the answer.
 * - standingBefore's loop from `words.length + 1`: the two extra words are undefined and match no list.
 * - `return 'other'` -> `return ""` in the standings: neither is ever a wanted standing.
 * - `namedKind !== undefined` -> `true`: a list of words never includes undefined.
 * - `/['’]s$/` -> `/['’]s/`: no word of the lists becomes another one when an inner "'s" is dropped.
 * - the sentence end after the last detail without `$` (`\.(?=\s)`): a full stop that ends the
 *   80 characters read has no word after it inside them, so the words read are the same.
 */
import { describe, expect, it } from 'vitest';
import { extractContact } from '../../src/contacts/find-contact.ts';

const phoneOf = async (text: string): Promise<string | null> => (await extractContact(text, { defaultRegion: 'US' })).phone;
const FIRST = '+13052129087';
const SECOND = '+13056403318';

describe('the words after a detail, up to the next clause', () => {
  it.each([
    ['305 212 9087 is wrong. 305 640 3318', SECOND],
    ['305 212 9087 is wrong - 305 640 3318', SECOND],
    ['305 212 9087 is wrong.305 640 3318', SECOND],
    ['305 212 9087 is my husband\'s, call 305 640 3318', SECOND],
    ['305 212 9087 is the office, call me at 305 640 3318', SECOND],
    ['305 212 9087 is my old one, call 305 640 3318', SECOND],
    ['305 212 9087 or 305 640 3318 is better', SECOND],
    ['305 212 9087 o 305 640 3318 es mejor', SECOND],
    ['305 212 9087 or 305 640 3318 is the new one', SECOND],
    ['Sorry, the last number was wrong, call 305 212 9087 or 305 640 3318', FIRST],
  ])('%j -> %s', async (text, expected) => {
    expect(await phoneOf(text)).toBe(expected);
  });

  it.each([
    ['call me at 305 640 3318, my husband is away', SECOND],
    ['call me at 305 640 3318 - my husband is away', SECOND],
    ['call me at 305 640 3318 anytime, my husband is away', SECOND],
    ['my husband\'s phone broke, call me at 305 640 3318', SECOND],
    ['305 212 9087 is wrong', null],
    ['305 212 9087 goes to voicemail', null],
  ])('one detail: %j -> %s', async (text, expected) => {
    expect(await phoneOf(text)).toBe(expected);
  });

  it('reads "office" as the property\'s after "the", "la", and as the visitor\'s own after "my"', async () => {
    expect(await phoneOf('the office line is 305 644 1020')).toBeNull();
    expect(await phoneOf('llamé a la oficina al 305 644 1020')).toBeNull();
    expect(await phoneOf('my office line is 305 644 1020')).toBe('+13056441020');
  });
});

describe('the kind named as better after the last detail', () => {
  it('prefers the detail of that kind, and only within the sentence after it', async () => {
    expect(await phoneOf('home 305 212 9087, cell 305 640 3318 - cell is better')).toBe(SECOND);
    expect(await phoneOf('cell 305 212 9087, home 305 640 3318. Our home is near the park')).toBe(FIRST);
  });

  it.each([
    ["my husband's cell 305 212 9087, my home 305 640 3318, cell is better"],
    ['old cell 305 212 9087, home 305 640 3318 - cell is better'],
    ['the office cell 305 212 9087, my home 305 640 3318 - cell is better'],
    ['cell 305 212 9087 is wrong, home 305 640 3318 - cell is better'],
  ])('never takes someone else\'s or an unusable detail, whatever kind is named: %j', async (text) => {
    expect(await phoneOf(text)).toBe(SECOND);
  });
});
