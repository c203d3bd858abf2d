import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldAccents } from '../../src/text/fold-accents.ts';
import { normalisedTokens } from '../../src/cache/normalise-text.ts';
import { detectLanguage } from '../../src/language/detect-language.ts';

describe('foldAccents', () => {
  it('compares words as people type them', () => {
    expect(foldAccents('María José PÉREZ')).toBe('maria jose perez');
    expect(foldAccents('¿Qué año?')).toBe('¿que ano?');
    expect(foldAccents('ﬁesta ＡＢＣ')).toBe('fiesta abc');
    expect(foldAccents('İSTANBUL')).toBe('istanbul');
  });

  it('leaves no combining mark, and folding twice changes nothing', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const once = foldAccents(text);
        expect(once).not.toMatch(/\p{M}/u);
        expect(foldAccents(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('is the folding of the session cache and of language detection alike', () => {
    expect(normalisedTokens('¿Qué AÑO?')).toEqual(normalisedTokens('que ano'));
    expect(detectLanguage('¿Tienen apartamentos disponibles para el próximo mes?')).toBe(detectLanguage('tienen apartamentos disponibles para el proximo mes'));
  });
});
