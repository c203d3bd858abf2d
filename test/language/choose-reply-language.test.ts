import { describe, expect, it } from 'vitest';
import { chooseReplyLanguage } from '../../src/language/reply-language.ts';

const choose = (message: string, spanishToggle: boolean, spanishSupportEnabled: boolean, sessionLanguage?: 'en' | 'es') =>
  chooseReplyLanguage({ message, spanishToggle, spanishSupportEnabled, sessionLanguage });

describe('chooseReplyLanguage (docs/api.md#reply-language)', () => {
  it('answers in Spanish whenever the toggle is on, on its own', () => {
    expect(choose('What is the rent?', true, false)).toBe('es');
    expect(choose('What is the rent?', true, true, 'en')).toBe('es');
    expect(choose('ok', true, false, 'en')).toBe('es');
  });

  it('always answers in English when Spanish support is off and there is no toggle', () => {
    expect(choose('¿Cuánto cuesta la renta?', false, false)).toBe('en');
    expect(choose('sí', false, false, 'es')).toBe('en');
  });

  it('follows the message language when Spanish support is on', () => {
    expect(choose('¿Cuánto cuesta la renta?', false, true)).toBe('es');
    expect(choose('cuanto cuesta la renta', false, true, 'en')).toBe('es');
    expect(choose('How much is the rent?', false, true, 'es')).toBe('en');
  });

  it('keeps the session language for a turn without language evidence', () => {
    expect(choose('sí', false, true, 'es')).toBe('es');
    expect(choose('ok', false, true, 'es')).toBe('es');
    expect(choose('305-482-7719', false, true, 'es')).toBe('es');
    expect(choose('ok', false, true, 'en')).toBe('en');
  });

  it('defaults to English when the session has no language yet', () => {
    expect(choose('sí', false, true)).toBe('en');
    expect(choose('ok', false, true, undefined)).toBe('en');
  });
});
