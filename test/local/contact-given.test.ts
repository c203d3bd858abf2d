/** The reference engine's check that a message already says how to reach the visitor. */
import { describe, expect, it } from 'vitest';
import { givesContact } from '../../src/local/engine/contact-given.ts';

describe('givesContact', () => {
  it.each([
    'call me at (415) 555-2671',
    'my number is +1 415 555 2671',
    'mi teléfono es 415.555.2671',
    'reach me on 555-2671',
    'email juan.perez@example.com please',
    'escríbame a maria_lopez+casa@correo.example.mx.',
  ])('finds a phone number or an email address: %s', (message) => {
    expect(givesContact(message)).toBe(true);
  });

  it.each([
    'Please connect me with a human agent.',
    'Do you have a 2 bedroom for $1,875 a month?',
    'Can I move in on 2026-01-15?',
    'Unit 2104, 3 beds, 1,200 sq ft',
    'Is @home a good name for the lounge?',
    'write to me at juan@localhost',
    'I am Juan Pérez',
  ])('finds none where there is none: %s', (message) => {
    expect(givesContact(message)).toBe(false);
  });

  it('reads a 4,000-character message of the worst kinds in linear time', () => {
    for (const message of ['a@'.repeat(2_000), '@a'.repeat(2_000), `${'a'.repeat(3_990)}@b.co`, '1-'.repeat(2_000), 'x@example'.repeat(440)]) {
      const started = performance.now();
      givesContact(message);
      expect(performance.now() - started, message.slice(0, 12)).toBeLessThan(20);
    }
    expect(givesContact(`${'a'.repeat(3_990)}@b.c`)).toBe(false);
    expect(givesContact(`${'a'.repeat(3_980)}@b.example`)).toBe(true);
  });
});
