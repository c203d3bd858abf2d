/**
 * Full names read from the text alone, without an introduction (src/contacts/name.ts, fromEntities):
 * the person compromise tags, every word of it a possible name word, read as capitalised words.
 *
 * Mutant of name.ts left alive on purpose (equivalent):
 * - `words.length < 2` -> `false`: a one-word entity is read as one capitalised word, which the
 *   full-name rule (`name.includes(' ')`) refuses anyway; compromise tags a full name as one entity.
 */
import { describe, expect, it } from 'vitest';
import { findName } from '../../src/contacts/name.ts';

describe('a full name in the text, without an introduction', () => {
  it.each([
    ['(Maria Lopez) asked about the 2 bedroom', 'Maria Lopez'],
    ['“Maria Lopez” asked about the unit', 'Maria Lopez'],
    ['Please have someone call me. Maria Gonzalez 305-482-7719', 'Maria Gonzalez'],
  ])('%j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });

  it.each([
    'Fuga De Gas, cocina, urgente', // every word of the entity must be a possible name word
    'Maria Lopez Saludos!', // so must the last one, punctuation left out
    'Maria lopez wants a tour', // only "Maria" is written as a name: no full name
    'maria Lopez wants a tour',
  ])('%j gives no name', (text) => {
    expect(findName(text)).toBeNull();
  });
});
