import { describe, expect, it } from 'vitest';
import { chooseLanguage } from '../../steps/choose-language.ts';
import { answeredContext, validRequest } from './step-context.ts';

describe('chooseLanguage (docs/api.md#reply-language)', () => {
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

describe('chooseLanguage with spanish_support_enabled', () => {
  const withSession = (message: string, language?: 'en' | 'es') => ({
    ...answeredContext(validRequest({ spanish_support_enabled: true, message })),
    session: language === undefined ? null : { messages: [], answers: [], language },
  });

  it('replies in Spanish to a message written in Spanish', () => {
    expect(chooseLanguage(withSession('¿A qué hora abre la oficina de arrendamiento?')).language).toBe('es');
    expect(chooseLanguage(withSession('hola, cuanto cuesta un apartamento de dos recamaras')).language).toBe('es');
  });

  it('keeps the session language for a short turn', () => {
    expect(chooseLanguage(withSession('sí', 'es')).language).toBe('es');
    expect(chooseLanguage(withSession('ok', 'es')).language).toBe('es');
    expect(chooseLanguage(withSession('juan.perez@example.com', 'es')).language).toBe('es');
    expect(chooseLanguage(withSession('ok', 'en')).language).toBe('en');
  });

  it('a short turn in a new session is English', () => {
    expect(chooseLanguage(withSession('ok')).language).toBe('en');
  });

  it('never Spanish without spanish_support_enabled or the toggle, whatever the message', () => {
    const ctx = { ...answeredContext(validRequest({ message: '¿Aceptan mascotas en los apartamentos?' })), session: { messages: [], answers: [], language: 'es' as const } };
    expect(chooseLanguage(ctx).language).toBe('en');
  });
});
