import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../src/language/detect-language.ts';
import { evaluateLanguage, loadLanguageCases } from '../../scripts/eval-language.ts';

describe('detectLanguage', () => {
  it.each([
    'Do you allow pets?',
    'What is the rent for a 2 bedroom apartment?',
    'My name is José García and I need a 2 bedroom', // accented name inside English
    'I live in Los Angeles and I am moving to Miami in May', // Spanish place names inside English
    'Can I pay la renta online?', // Spanglish with English grammar
    'Thanks!',
    'Hello',
  ])('English: %j', (text) => {
    expect(detectLanguage(text)).toBe('en');
  });

  it.each([
    '¿Aceptan mascotas?',
    'cuanto cuesta la renta', // no accents, no ¿
    'tienen disponibilidad para el sabado',
    'quiero saber el price del apartment de una recamara', // Spanglish with Spanish grammar
    'Mi nombre es John Smith y quiero ver el apartamento', // English name inside Spanish
    '¡Perfecto!', // the inverted mark decides alone
    'si, por favor',
    'mañana',
  ])('Spanish: %j', (text) => {
    expect(detectLanguage(text)).toBe('es');
  });

  it('treats a single clearly Spanish or English word as that language', () => {
    expect(detectLanguage('gracias')).toBe('es');
    expect(detectLanguage('Gracias!')).toBe('es');
    expect(detectLanguage('hola')).toBe('es');
    expect(detectLanguage('thanks')).toBe('en');
  });

  it.each([
    'sí', 'si', 'Sí!', 'ok', 'OK', 'okay', 'Okay.', 'yes', 'Yes', 'no', 'No.', 'ok 👍', '👍', '🙏🙏',
    '123', '2104', '$1,450', '3/15', '10:30', '12B', '?', '...',
    '305-482-7719', '+1 305 482 7719', 'maria.lopez@gmail.com',
    'Juan Pérez', // a name alone: accents are not enough
    '', '   ',
  ])('short or neutral turn %j is unknown', (text) => {
    expect(detectLanguage(text)).toBe('unknown');
  });

  it('is unknown when neither language leads by a word', () => {
    expect(detectLanguage('hola thanks')).toBe('unknown');
  });

  it('is deterministic', () => {
    const text = 'quiero ver el apartment on Saturday';
    const first = detectLanguage(text);
    for (let i = 0; i < 5; i++) expect(detectLanguage(text)).toBe(first);
  });
});

// Quality gate on the labelled set (not a timing test).
describe('detectLanguage on the labelled set', () => {
  const cases = loadLanguageCases();

  it('has at least 60 messages of each kind of label', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    for (const lang of ['en', 'es', 'unknown'] as const) expect(cases.filter((c) => c.lang === lang).length).toBeGreaterThanOrEqual(15);
  });

  it('reaches an accuracy of at least 0.95', () => {
    expect(evaluateLanguage(cases).accuracy).toBeGreaterThanOrEqual(0.95);
  });
});
