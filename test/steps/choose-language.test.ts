import { describe, expect, it } from 'vitest';
import { chooseLanguage } from '../../steps/choose-language.ts';
import { answeredContext, validRequest } from './step-context.ts';

describe('chooseLanguage (CONTRACTS 3.2)', () => {
  it('chooses Spanish when spanish_toggle is true, even without spanish_support_enabled', () => {
    const request = validRequest({ spanish_toggle: true, spanish_support_enabled: false, message: 'What time do you open?' });
    expect(chooseLanguage(answeredContext(request)).language).toBe('es');
  });

  it('chooses English by default', () => {
    expect(chooseLanguage(answeredContext(validRequest())).language).toBe('en');
  });

  it('keeps English for an English message when only spanish_support_enabled is set', () => {
    const request = validRequest({ spanish_support_enabled: true, message: 'What time does the leasing office open?' });
    expect(chooseLanguage(answeredContext(request)).language).toBe('en');
  });
});
