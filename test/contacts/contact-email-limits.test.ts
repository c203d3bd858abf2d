/**
 * The address src/contacts/email.ts reports: quotes around it left out, where it is written, and
 * the lengths RFC 5321 allows (64 characters before the "@", 254 in all).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findEmail, findEmails } from '../../src/contacts/email.ts';

describe('quotes and backticks written around an address', () => {
  it.each([
    ["write to 'kim@x.com'", 'kim@x.com'],
    ["write to ''kim@x.com''", 'kim@x.com'],
    ['write to ``kim@x.com``', 'kim@x.com'],
  ])('are not part of it: %j', (text, expected) => {
    expect(findEmail(text)).toBe(expected);
  });

  it('is reported where it is written, the quotes outside', () => {
    const text = "write to ''kim@x.com'' today";
    expect(findEmails(text)).toEqual([{ email: 'kim@x.com', start: text.indexOf('kim'), end: text.indexOf('kim@x.com') + 'kim@x.com'.length }]);
  });

  it('leaves nothing when only quotes stand before the "@"', () => {
    expect(findEmail("my handle is '@x.com'")).toBeNull();
    expect(findEmail('my handle is ``@x.com, or kim@y.org')).toBe('kim@y.org');
  });
});

describe('lengths', () => {
  const letters = (min: number, max: number) => fc.stringMatching(new RegExp(`^[a-z]{${String(min)},${String(max)}}$`));

  it('takes a local part of up to 64 characters, and no longer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 80 }), (length) => {
        const local = 'k'.repeat(length);
        expect(findEmail(`mail ${local}@x.com`)).toBe(length <= 64 ? `${local}@x.com` : null);
      }),
    );
  });

  it('takes an address of up to 254 characters in all, and no longer', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 150, max: 200 }), letters(2, 6), (localLength, labelsLength, tld) => {
        const local = 'k'.repeat(localLength);
        // Host labels of at most 63 characters, joined by dots, then the top-level label.
        const labels = 'a'.repeat(labelsLength).match(/.{1,60}/g)!.join('.');
        const address = `${local}@${labels}.${tld}`;
        expect(findEmail(`mail ${address} now`)).toBe(address.length <= 254 ? address : null);
      }),
    );
  });

  it('takes exactly 254 characters, and not 255', () => {
    // A host of labels of at most 60 letters joined by dots, ending in ".com", `length` long in all.
    const host = (length: number): string => `${'a'.repeat(length - 4)}`.match(/.{1,60}/g)!.join('.').slice(0, length - 4) + '.com';
    for (const total of [253, 254, 255, 256]) {
      const domain = host(total - 1 - 64);
      const address = `${'k'.repeat(64)}@${domain}`;
      expect(address).toHaveLength(total);
      expect(findEmail(`mail ${address} now`)).toBe(total <= 254 ? address : null);
    }
  });
});
