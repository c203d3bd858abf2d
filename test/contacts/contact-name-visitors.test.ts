import { describe, expect, it } from 'vitest';
import { findName } from '../../src/contacts/name.ts';

describe('the writer\'s name as visitors write it (issue 27)', () => {
  it.each([
    ['its Kayla from 12B the ac is leaking', 'Kayla'],
    ['Im Derek, need someone to call me', 'Derek'],
    ['hola, le habla ricardo vega, llamenme', 'Ricardo Vega'],
    ['Aquí Marta Salinas, necesito un agente', 'Marta Salinas'],
    ['quien escribe es Rosa Diaz, inquilina del 2B', 'Rosa Diaz'],
    ['can an agent email me about the lease? xoxo Jenny', 'Jenny'],
    ['the hallway light is out again. - Brenda', 'Brenda'],
    ['Keisha Brown, 404 718 2296, keisha.b@gmail.com', 'Keisha Brown'],
    ['me llamo juan de la rosa, 713 330 2281', 'Juan de la Rosa'],
    ['my name is Sarah Johnson-Smith', 'Sarah Johnson-Smith'],
    ['My name is John R. Miller, water heater is out', 'John R. Miller'],
    ['soy Carmen de Monterrey, busco un depa', 'Carmen'],
    ['Hey Nick here, need a call back', 'Nick'],
    ['Tomas Banderas aqui, necesito que me llamen', 'Tomas Banderas'],
    ['Can I talk to Jennifer Lopez the manager? I\'m Rob', 'Rob'],
  ])('%j -> %j', (text, name) => {
    expect(findName(text)).toBe(name);
  });

  it.each([
    "I'm Section 8 approved, can someone call me?",
    'soy Section 8 aprobada, me pueden llamar?',
    'Torre Carlos Slim depto 804, se inundo el baño',
    'Walter Payton Court building B, the elevator is stuck',
    'my neighbor Dave Collins keeps parking in my spot',
    'i spoke with Kevin Brooks from maintenance yesterday',
    'its raining inside my apartment!!',
    'aqui no hay agua desde ayer',
    'Water Leak, kitchen, urgent',
  ])('no writer\'s name in %j', (text) => {
    expect(findName(text)).toBeNull();
  });
});

describe('the writer\'s name in the phrasings of issue 44\'s second round', () => {
  it.each([
    ['Hi, this is April, unit 3', 'April'],
    ['you can call me Teddy, 469 332 8140', 'Teddy'],
    ['this is brianna wells, can i get a tour', 'Brianna Wells'],
    ['hi im john carver looking at the 1 bed', 'John Carver'],
    ['hola soy karla mendoza, me interesa el de 1 recamara', 'Karla Mendoza'],
    ['see you at the tour tomorrow!\nWes', 'Wes'],
    ['Please call me back about the parking sticker. Sam', 'Sam'],
    ['Thanks in advance,\nOmar', 'Omar'],
    ['me avisan cuando haya lugar, saludos, ana', 'Ana'],
    ['Kind regards,\nEthan Park', 'Ethan Park'],
    ["it's me, Anita from 6B", 'Anita'],
    ['Soy el señor Aurelio Campos, del 12', 'Aurelio Campos'],
    ["I'm Sgt. Daniel Reyes", 'Daniel Reyes'],
    ["I'm Karen Lease haha.", 'Karen Lease'],
    ['soy Julia Mora Cel 956 330 2817', 'Julia Mora'],
    ['From: Derek Hall\nSubject: parking spot', 'Derek Hall'],
  ])('%j -> %j', (text, name) => {
    expect(findName(text)).toBe(name);
  });

  it.each([
    'mi compañera de cuarto Paola Ruiz y yo queremos ver el depto',
    'Thanks, Maintenance Team',
    'Hi this is Sunset Ridge resident',
    'Gracias! Atentamente', // a closing alone
    'Vengo de parte de Carlos Méndez',
    'Soy la mamá de Sofía Ruiz del 204',
    'Laura Mendez told me to message you about the studio',
    "I'm calling for my mom, her name is Rosa Diaz",
    'El técnico Raúl Salinas no vino el martes',
    'Is Greg Holt still the manager?',
    'can I talk to\nMaria',
    'the key works now. thank you, ms. lopez',
  ])('no writer\'s name in %j', (text) => {
    expect(findName(text)).toBeNull();
  });
});
