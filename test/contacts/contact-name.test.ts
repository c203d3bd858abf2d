import { describe, expect, it } from 'vitest';
import { findName } from '../../src/contacts/name.ts';

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
    ['Name: Sara Lind / Phone: 646.555.0150', 'Sara Lind'],
  ])('English: %j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });

  it.each([
    ['Hola, me llamo Juan Pérez y mi teléfono es 786-342-1187', 'Juan Pérez'],
    ['Mi nombre es José Luis Martínez, mi correo es jl@x.com', 'José Luis Martínez'],
    ['Buenas tardes, soy Lucía Fernández y me interesa el apartamento', 'Lucía Fernández'],
    ['Hola, habla Roberto Díaz, mi número es', 'Roberto Díaz'],
    ['Hola! Soy Sofía. ¿Aceptan gatos?', 'Sofía'],
    ['Mi nombre es Juan Carlos de la Cruz y vivo en el 305', 'Juan Carlos de la Cruz'],
    ['Nombre: Mario Salas, Tel: 305-555-0181', 'Mario Salas'],
  ])('Spanish, accents kept: %j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });

  it.each([
    ['my name is maria lopez, my cell is 786', 'Maria Lopez'],
    ['me llamo maría josé garcía, quiero información', 'María José García'],
    ['me llamo diego alejandro castillo', 'Diego Alejandro Castillo'],
    ['soy ana, quiero ver el apartamento', 'Ana'],
    ['soy xiomara, del 3B', 'Xiomara'],
    ['soy yesenia, del 2B', 'Yesenia'],
    ['hi im john, interested in the 2br', 'John'],
    ['hi im trevon, need a tour', 'Trevon'],
    ['this is carlos from unit 4B', 'Carlos'],
    ['MY NAME IS JOHN SMITH', 'John Smith'],
    ["my name is patrick o'brien", "Patrick O'Brien"],
  ])('title-cases names written in lower or upper case: %j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });

  it.each([
    ["I'm Will and I need a parking spot", 'Will'],
    ['This is Will from 12B', 'Will'],
    ["I'm Joy, the new tenant in 6D", 'Joy'],
    ['my name is will', 'Will'],
    ["I'm Mark. Will you call me back?", 'Mark'],
  ])('common words that are names where a name is given: %j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });

  it.each([
    ['My name is Nguyen Van An, phone (408) 555-0134', 'Nguyen Van An'],
    ['My name is Le Van Tam', 'Le Van Tam'],
    ["Hi, I'm Nguyen Thi Hoa, 408-555-0161", 'Nguyen Thi Hoa'],
    ['me llamo pham thi lan', 'Pham Thi Lan'],
  ])('Vietnamese names, "Van" and "Thi" included: %j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });

  it.each([
    ['Soy Guadalupe, del 305', 'Guadalupe'],
    ["Hi I'm Dallas from 4B", 'Dallas'],
    ["I'm Jin Park, 212-555-0100", 'Jin Park'],
    ['Regards, John', 'John'],
    ['Sincerely, Ann Lee', 'Ann Lee'],
    ['Thanks so much, Hannah', 'Hannah'],
  ])('people named like places, and signatures: %j -> %j', (text, expected) => {
    expect(findName(text)).toBe(expected);
  });

  it('reports the writer, not the person greeted or asked for', () => {
    expect(findName('Hi Sarah, this is Tom Baker from apartment 4C')).toBe('Tom Baker');
    expect(findName('Can I speak with Maria Lopez about the pool hours?')).toBeNull();
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
    expect(findName(text)).toBeNull();
  });

  it.each([
    '¿Queda cerca de la calle Benito Juárez?',
    '¿Está cerca de la avenida Miguel Alemán?',
    'Busco algo cerca de Gloria Estefan Blvd',
    'Do you have anything on Kennedy Avenue?',
    'I work on Bedford Street near Columbia University',
    'Is there a bus near Maria Hernandez Park?',
    'Me queda cerca del parque Simón Bolívar',
  ])('a street or place named after a person is not the writer: %j', (text) => {
    expect(findName(text)).toBeNull();
  });

  it.each([
    'soy alérgica al polen',
    'soy madre de dos niños',
    'soy joven y trabajo',
    'soy ama de casa',
    "i'm super tired",
    'im gonna be late for the tour',
    'im outta here',
    "i'm hopeful the repair happens today",
    'this is crazy',
    'this is unacceptable, nobody came',
    "I'm willing to pay more",
  ])('a lower-case word after an introduction that is not a name: %j', (text) => {
    expect(findName(text)).toBeNull();
  });
});
