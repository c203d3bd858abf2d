import { describe, expect, it } from 'vitest';
import { extractContact } from '../../src/contacts/find-contact.ts';

const name = (text: string): string | null => extractContact(text, { defaultRegion: 'US' }).name;

describe('name extraction: self-introductions', () => {
  it.each([
    ['Hi, my name is John Smith and my number is 212-748-3091', 'John Smith'],
    ["I'm Sarah Connor, you can reach me by email", 'Sarah Connor'],
    ['This is Kevin, please call me back', 'Kevin'],
    ["Name's Rick. Phone soon.", 'Rick'],
    ["I am Mark Lee and I'm interested in unit 2104", 'Mark Lee'],
    ['Hello, Jennifer here. My email is j@x.com', 'Jennifer'],
    ['Hello this is Dr. Amanda Ruiz, my office number', 'Amanda Ruiz'],
    ["my name is Patrick O'Brien", "Patrick O'Brien"],
    ["I'm Mary-Kate and my number is", 'Mary-Kate'],
    ['My name is Robert Johnson Jr. and my phone', 'Robert Johnson Jr.'],
    ['Thanks! - David Brown, david.brown@icloud.com', 'David Brown'],
    ['Please have someone call me. Maria Gonzalez 305-482-7719', 'Maria Gonzalez'],
  ])('English: %j -> %j', (text, expected) => {
    expect(name(text)).toBe(expected);
  });

  it.each([
    ['Hola, me llamo Juan Pérez y mi teléfono es 786-342-1187', 'Juan Pérez'],
    ['Mi nombre es José Luis Martínez, mi correo es jl@x.com', 'José Luis Martínez'],
    ['Buenas tardes, soy Lucía Fernández y me interesa el apartamento', 'Lucía Fernández'],
    ['Hola, habla Roberto Díaz, mi número es', 'Roberto Díaz'],
    ['Hola! Soy Sofía. ¿Aceptan gatos?', 'Sofía'],
    ['Mi nombre es Juan Carlos de la Cruz y vivo en el 305', 'Juan Carlos de la Cruz'],
  ])('Spanish, accents kept: %j -> %j', (text, expected) => {
    expect(name(text)).toBe(expected);
  });

  it.each([
    ['my name is maria lopez, my cell is 786', 'Maria Lopez'],
    ['me llamo maría josé garcía, quiero información', 'María José García'],
    ['soy ana, quiero ver el apartamento', 'Ana'],
    ['hi im john, interested in the 2br', 'John'],
    ['this is carlos from unit 4B', 'Carlos'],
    ['MY NAME IS JOHN SMITH', 'John Smith'],
    ["my name is patrick o'brien", "Patrick O'Brien"],
  ])('capitalises lower- or upper-case names: %j -> %j', (text, expected) => {
    expect(name(text)).toBe(expected);
  });

  it.each([
    ['Soy Guadalupe, del 305', 'Guadalupe'],
    ["Hi I'm Dallas from 4B", 'Dallas'],
    ['Regards, John', 'John'],
    ['Sincerely, Ann Lee', 'Ann Lee'],
  ])('people named like places, and signatures: %j -> %j', (text, expected) => {
    expect(name(text)).toBe(expected);
  });

  it('reports the writer, not the person greeted or asked for', () => {
    expect(name('Hi Sarah, this is Tom Baker from apartment 4C')).toBe('Tom Baker');
    expect(name('Can I speak with Maria Lopez about the pool hours?')).toBeNull();
  });
});

describe('name extraction: no name', () => {
  it.each([
    "I'm interested in the 1 bedroom for $1,450/month",
    "I'm looking for a studio",
    'This is urgent, water is leaking!',
    'THIS IS URGENT',
    'This is about my lease renewal',
    "I'm moving in May and need a 2 bedroom",
    'I am available Monday or Tuesday',
    "I'm a nurse working nights",
    "I'm good thanks. What's the pet deposit?",
    'I am the owner of unit 1507',
    "I'm in unit 8 and it's 55 degrees",
    'Soy estudiante y busco un estudio barato',
    'Soy de Miami y me mudo en julio',
    'Soy la inquilina del 4B',
    'soy muy responsable y tengo buen crédito',
    'Soy nuevo en la ciudad',
    '¿Alguien habla inglés?',
    'Good morning, I would like to speak to an agent',
    'Hi, the pool is closed again. Thanks.',
    'Thanks for the quick reply, see you Saturday',
    "This is Maria's husband, she asked me to write",
    "I'm John's roommate",
    "I'm Catholic and need a quiet place",
    'Soy Venezolana y busco apartamento',
    'Soy Ingeniero',
    'This is Management',
    'This is Jacksonville Apartments?',
    'soy colombiano',
    'Thanks! Jessica told me to ask about the deposit', // a name after "thanks" that is not a signature
  ])('%j has no name', (text) => {
    expect(name(text)).toBeNull();
  });
});
